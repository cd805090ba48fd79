#!/usr/bin/env python3
"""Converts Resemblyzer 0.1.4's pretrained.pt (GE2E voice encoder, Apache-2.0) to the engine's
weights file, without torch.

pretrained.pt is torch's *legacy* serialisation: pickles (magic number, protocol version, system
info, the object with persistent ids for its storages, the list of storage keys), then for each
storage key in that order an int64 element count followed by the raw little-endian elements.

Output format (all little-endian), read by KordantVoice's SpeakerEncoderWeights:

    8 bytes   magic b"KVGE2E\\0\\0"
    u32       format version (1)
    u32       number of tensors N
    N times:  u32 name length, name (UTF-8), u32 rank, rank × u32 dims,
              product(dims) float32 values (row-major, as torch stores them)
    4 bytes   b"END!"

Usage: voice_encoder_weights.py pretrained.pt OUT.bin
"""
import math
import os
import pickle
import struct
import sys

# The tensors the encoder uses, in the order they are written.
NAMES = [f"lstm.{w}_l{layer}" for layer in range(3) for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
NAMES += ["linear.weight", "linear.bias"]
ELEMENT_SIZE = {"FloatStorage": 4, "DoubleStorage": 8, "LongStorage": 8, "IntStorage": 4,
                "HalfStorage": 2, "ByteStorage": 1, "CharStorage": 1, "ShortStorage": 2, "BoolStorage": 1}


class TensorRef:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)


class LegacyUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module == "torch._utils" and name == "_rebuild_tensor_v2":
            return lambda storage, offset, size, stride, *rest: TensorRef(storage, offset, size, stride)
        if module == "torch":
            return name  # storage type names, e.g. "FloatStorage"
        if module == "collections" and name == "OrderedDict":
            import collections
            return collections.OrderedDict
        raise pickle.UnpicklingError(f"unexpected class {module}.{name}")

    def __init__(self, f):
        super().__init__(f)
        self.storages = []

    def persistent_load(self, pid):
        # ('storage', type, key, location, numel, view_metadata)
        s = {"type": pid[1], "key": pid[2], "numel": pid[4]}
        self.storages.append(s)
        return s


def read_checkpoint(path):
    with open(path, "rb") as f:
        magic = pickle.load(f)
        if magic != 0x1950A86A20F9469CFC6C:
            raise SystemExit(f"{path}: not a torch legacy checkpoint (magic {magic!r})")
        pickle.load(f)  # protocol version
        info = pickle.load(f)
        if not info.get("little_endian", False):
            raise SystemExit(f"{path}: big-endian checkpoint")
        unpickler = LegacyUnpickler(f)
        obj = unpickler.load()
        keys = pickle.load(f)
        types = {s["key"]: s["type"] for s in unpickler.storages}
        data = {}
        for key in keys:
            (count,) = struct.unpack("<q", f.read(8))
            size = ELEMENT_SIZE[types[key]]
            raw = f.read(count * size)
            if len(raw) != count * size:
                raise SystemExit(f"{path}: truncated storage {key}")
            data[key] = (types[key], raw)
    return obj, data


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    obj, data = read_checkpoint(src)
    state = obj["model_state"]
    out = bytearray(b"KVGE2E\0\0" + struct.pack("<II", 1, len(NAMES)))
    for name in NAMES:
        t = state[name]
        kind, raw = data[t.storage["key"]]
        if kind != "FloatStorage":
            raise SystemExit(f"{src}: {name} is {kind}, expected FloatStorage")
        n = 1
        for d in t.size:
            n *= d
        # Row-major contiguous strides are what torch saved for these parameters.
        expected = tuple(math.prod(t.size[i + 1:]) for i in range(len(t.size)))
        if t.stride != expected:
            raise SystemExit(f"{src}: {name} is not contiguous (stride {t.stride})")
        values = raw[4 * t.offset: 4 * (t.offset + n)]
        encoded = name.encode()
        out += struct.pack("<I", len(encoded)) + encoded + struct.pack("<I", len(t.size))
        out += struct.pack(f"<{len(t.size)}I", *t.size) + values
    out += b"END!"
    with open(dst + ".tmp", "wb") as f:
        f.write(out)
    os.replace(dst + ".tmp", dst)
    print(f"{dst}: {len(NAMES)} tensors, {len(out)} bytes")


if __name__ == "__main__":
    main()
