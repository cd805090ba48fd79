"""Writes TestDocuments/: synthetic deeds, identity documents with ICAO 9303 MRZs, and data-broker
opt-out forms, each clean and degraded (skewed, noisy/blurred/JPEG, 150 DPI, unevenly lit,
rotated), with ground truth (text lines and fields) in TestDocuments/manifest.json.

All people, numbers and addresses are invented. Fonts come from Debian (fonts-dejavu-core,
fonts-liberation2, fonts-ocr-b). Deterministic: fixed seeds, no timestamps in the PNGs.
"""
import io
import json
import os
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "TestDocuments")
DPI = 300
FONTS = {
    "dejavu-serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "dejavu-sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "dejavu-sans-bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "liberation-serif": "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf",
    "liberation-sans": "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "liberation-sans-bold": "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    "ocrb": "/usr/share/fonts/opentype/ocr-b/OCRBS.otf",
}


# ---- ICAO 9303 ------------------------------------------------------------------------------------
def char_value(c):
    if c.isdigit():
        return int(c)
    if c == "<":
        return 0
    return ord(c) - ord("A") + 10


def check_digit(s):
    return str(sum(char_value(c) * (7, 3, 1)[i % 3] for i, c in enumerate(s)) % 10)


def pad(s, n):
    return (s + "<" * n)[:n]


def name_field(surname, given, n):
    return pad(surname.upper().replace(" ", "<") + "<<" + given.upper().replace(" ", "<"), n)


def td3(p):
    line1 = pad("P<" + p["issuer"] + name_field(p["surname"], p["given"], 39), 44)
    num = pad(p["number"], 9)
    opt = pad(p.get("optional", ""), 14)
    body = num + check_digit(num) + p["nationality"] + p["dob"] + check_digit(p["dob"]) + p["sex"] + p["expiry"] + \
        check_digit(p["expiry"]) + opt + check_digit(opt)
    composite = num + check_digit(num) + p["dob"] + check_digit(p["dob"]) + p["expiry"] + check_digit(p["expiry"]) + \
        opt + check_digit(opt)
    return [line1, body + check_digit(composite)]


def td1(p):
    num = pad(p["number"], 9)
    opt1 = pad(p.get("optional", ""), 15)
    line1 = "I<" + p["issuer"] + num + check_digit(num) + opt1
    opt2 = pad("", 11)
    line2_wo = p["dob"] + check_digit(p["dob"]) + p["sex"] + p["expiry"] + check_digit(p["expiry"]) + p["nationality"] + opt2
    composite = line1[5:30] + line2_wo[0:7] + line2_wo[8:15] + opt2
    line2 = line2_wo + check_digit(composite)
    line3 = name_field(p["surname"], p["given"], 30)
    return [line1, line2, line3]


def iso(yymmdd, century):
    return f"{century}{yymmdd[0:2]}-{yymmdd[2:4]}-{yymmdd[4:6]}"


# ---- documents ------------------------------------------------------------------------------------
DEEDS = [
    dict(name="deed_warranty", font="dejavu-serif", title="WARRANTY DEED",
         fields=dict(grantor="MARGARET L. HOLLOWAY", grantee="DANIEL R. OKAFOR AND PRIYA S. OKAFOR",
                     parcel_number="042-118-07", recording_date="2023-03-14", instrument_number="2023-0045871",
                     county="Travis", state="TX", property_address="1427 Juniper Hollow Lane, Austin, TX 78745",
                     consideration=385000.00,
                     legal_description="Lot 12, Block C, Juniper Hollow Section Two, according to the plat recorded in Volume 88, Page 214"),
         lines=["RECORDING REQUESTED BY AND WHEN RECORDED RETURN TO:", "Daniel R. Okafor", "1427 Juniper Hollow Lane, Austin, TX 78745",
                "", "Instrument No. 2023-0045871", "Recorded: March 14, 2023", "County of Travis, State of Texas",
                "APN: 042-118-07", "", "WARRANTY DEED", "",
                "For a consideration of $385,000.00, receipt of which is acknowledged,",
                "Grantor: MARGARET L. HOLLOWAY",
                "hereby grants, bargains, sells and conveys to",
                "Grantee: DANIEL R. OKAFOR AND PRIYA S. OKAFOR",
                "the following real property situated in Travis County, Texas:",
                "Property Address: 1427 Juniper Hollow Lane, Austin, TX 78745",
                "Legal Description: Lot 12, Block C, Juniper Hollow Section Two,",
                "according to the plat recorded in Volume 88, Page 214.",
                "", "Dated: March 10, 2023", "", "Margaret L. Holloway, Grantor"]),
    dict(name="deed_quitclaim", font="liberation-serif", title="QUITCLAIM DEED",
         fields=dict(grantor="THOMAS A. BRENNAN", grantee="SARAH J. BRENNAN",
                     parcel_number="5531-009-022", recording_date="2021-11-02", instrument_number="DOC 2021-778102",
                     county="Maricopa", state="AZ", property_address="88 West Saguaro Drive, Phoenix, AZ 85021",
                     consideration=10.00,
                     legal_description="Unit 4, Saguaro Gardens Condominium, as shown in Book 612 of Maps, Page 31"),
         lines=["When recorded mail to: Sarah J. Brennan", "88 West Saguaro Drive, Phoenix, AZ 85021", "",
                "Document Number: DOC 2021-778102", "Recording Date: 11/02/2021", "Maricopa County Recorder",
                "Assessor's Parcel Number: 5531-009-022", "", "QUITCLAIM DEED", "",
                "For the consideration of Ten Dollars ($10.00) and other valuable consideration,",
                "THOMAS A. BRENNAN, Grantor,", "does hereby quitclaim unto",
                "SARAH J. BRENNAN, Grantee,", "all right, title and interest in the property located at",
                "88 West Saguaro Drive, Phoenix, AZ 85021, County of Maricopa, State of Arizona,",
                "legally described as: Unit 4, Saguaro Gardens Condominium,",
                "as shown in Book 612 of Maps, Page 31.", "", "Signed this 28th day of October, 2021.", "",
                "Thomas A. Brennan"]),
]

OPTOUTS = [
    dict(name="optout_form", font="liberation-sans", layout="form",
         fields=dict(data_broker="PeopleFinderHub", full_name="Jordan M. Alvarez", email="jordan.alvarez@example.com",
                     phone="(512) 555-0147", street_address="902 Cedar Bluff Road", city="Round Rock", state="TX",
                     zip="78664", request_id="PFH-REQ-448213", date="2024-06-03")),
    dict(name="optout_letter", font="dejavu-sans", layout="letter",
         fields=dict(data_broker="Spokeo", full_name="Evelyn Park", email="evelyn.park@example.org",
                     phone="415-555-0199", street_address="31 Larkin Street, Apt 5", city="San Francisco", state="CA",
                     zip="94102", request_id="SPK-7781-2204", date="2024-09-17")),
]

IDS = [
    dict(name="passport_td3", kind="td3", font="dejavu-sans",
         person=dict(issuer="UTO", nationality="UTO", surname="Lindqvist", given="Astrid Helena", number="X4R729104",
                     dob="850214", sex="F", expiry="320611", optional="")),
    dict(name="idcard_td1", kind="td1", font="liberation-sans",
         person=dict(issuer="UTO", nationality="UTO", surname="Moreau", given="Julien Pierre", number="T7B044315",
                     dob="920930", sex="M", expiry="290105", optional="")),
]


def font(name, pt, dpi=DPI):
    return ImageFont.truetype(FONTS[name], int(pt * dpi / 72))


def page(width_in, height_in, dpi=DPI):
    return Image.new("L", (int(width_in * dpi), int(height_in * dpi)), 255)


def draw_lines(img, lines, fname, pt, x_in, y_in, spacing=1.5, dpi=DPI, title=None):
    d = ImageDraw.Draw(img)
    f = font(fname, pt, dpi)
    y = int(y_in * dpi)
    for line in lines:
        if line == title:
            tf = font(fname.replace("-serif", "-sans-bold") if "sans" not in fname else fname + "-bold", pt + 6, dpi) \
                if fname + "-bold" in FONTS or fname.replace("-serif", "-sans-bold") in FONTS else f
            w = d.textlength(line, font=tf)
            d.text(((img.width - w) / 2, y), line, font=tf, fill=0)
            y += int((pt + 6) * dpi / 72 * spacing)
            continue
        d.text((int(x_in * dpi), y), line, font=f, fill=0)
        y += int(pt * dpi / 72 * spacing)
    return img


def render_deed(doc):
    img = page(8.5, 9.5)
    return draw_lines(img, doc["lines"], doc["font"], 11, 1.0, 0.8, title=doc["title"]), doc["lines"]


def render_optout(doc):
    f = doc["fields"]
    if doc["layout"] == "form":
        lines = [f"DATA REMOVAL REQUEST - {f['data_broker']}", "",
                 "Please remove my personal information from your website and databases.", "",
                 f"Full Name: {f['full_name']}", f"Email: {f['email']}", f"Phone: {f['phone']}",
                 f"Street Address: {f['street_address']}", f"City: {f['city']}", f"State: {f['state']}",
                 f"ZIP: {f['zip']}", "", f"Request ID: {f['request_id']}", "Date: 06/03/2024", "",
                 "I certify that I am the person named above."]
    else:
        lines = ["September 17, 2024", "", f"To: {f['data_broker']} Privacy Team", "Re: Opt-Out Request", "",
                 "To whom it may concern,", "",
                 "Under applicable privacy law I request that you delete my personal",
                 "information and stop selling or sharing it. My details:", "",
                 f"Name: {f['full_name']}", f"Address: {f['street_address']}, {f['city']}, {f['state']} {f['zip']}",
                 f"E-mail: {f['email']}", f"Telephone: {f['phone']}", f"Reference: {f['request_id']}", "",
                 "Sincerely,", f['full_name']]
    img = page(8.5, 7.5)
    return draw_lines(img, lines, doc["font"], 12, 1.0, 0.8), lines


def render_id(doc):
    p = doc["person"]
    mrz = td3(p) if doc["kind"] == "td3" else td1(p)
    century = lambda yy, future: ("20" if int(yy) <= 40 else "19") if future else ("19" if int(yy) > 30 else "20")
    if doc["kind"] == "td3":
        img = page(4.92, 3.46)       # TD3 data page, 125 × 88 mm
        title = "PASSPORT"
    else:
        img = page(3.37, 2.13)       # TD1 card, 85.6 × 54 mm
        title = "IDENTITY CARD"
    d = ImageDraw.Draw(img)
    # The card's visual zone is smaller and must end above its three-line MRZ.
    small = font(doc["font"], 6.5 if doc["kind"] == "td3" else 5.5)
    label = font(doc["font"], 5 if doc["kind"] == "td3" else 4)
    x = int(0.32 * img.width) if doc["kind"] == "td3" else int(0.36 * img.width)
    d.rectangle([int(0.05 * img.width), int(0.2 * img.height), x - int(0.04 * img.width), int(0.62 * img.height)],
                outline=0, width=4)
    d.text((int(0.05 * img.width), int(0.05 * img.height)), f"UTOPIA  {title}", font=font(doc["font"], 8), fill=0)
    dob = iso(p["dob"], century(p["dob"][:2], False))
    exp = iso(p["expiry"], century(p["expiry"][:2], True))
    entries = [("Surname", p["surname"].upper()), ("Given names", p["given"].upper()),
               ("Nationality", p["nationality"]), ("Date of birth", dob), ("Sex", p["sex"]),
               ("Document no.", p["number"]), ("Date of expiry", exp)]
    y = int((0.18 if doc["kind"] == "td3" else 0.14) * img.height)
    lines = [f"UTOPIA {title}"]
    for k, v in entries:
        d.text((x, y), k, font=label, fill=0)
        y += int(label.size * 1.1)
        d.text((x, y), v, font=small, fill=0)
        y += int(small.size * 1.35)
        lines += [k, v]
    mf = font("ocrb", 9.5 if doc["kind"] == "td3" else 8.5)
    n = len(mrz)
    top = img.height - int(mf.size * 1.25) * n - int(0.05 * img.height)
    assert y < top, f"{doc['name']}: visual zone ends at {y}, MRZ starts at {top}"
    y = top
    for line in mrz:
        d.text((int(0.04 * img.width), y), line, font=mf, fill=0)
        y += int(mf.size * 1.25)
    fields = dict(surname=p["surname"].upper(), given_names=p["given"].upper(), document_number=p["number"],
                  nationality=p["nationality"], date_of_birth=dob, sex=p["sex"], expiry_date=exp, mrz=mrz,
                  mrz_format=doc["kind"].upper())
    return img, lines + mrz, fields


# ---- degradations ----------------------------------------------------------------------------------
def skew(img, angle):
    return img.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)


def noisy(img, rng):
    blurred = img.filter(ImageFilter.GaussianBlur(1.1))
    px = blurred.load()
    w, h = blurred.size
    for _ in range(w * h // 40):
        x, y = rng.randrange(w), rng.randrange(h)
        px[x, y] = max(0, min(255, px[x, y] + rng.randint(-90, 90)))
    return blurred


def lowres(img):
    return img.resize((img.width // 2, img.height // 2), Image.LANCZOS)


def uneven(img):
    """Light falling off across the page (a phone photo by a window): paper goes from white to
    ~45 % grey along the diagonal, ink stays dark."""
    import numpy as np
    a = np.asarray(img, dtype=np.float32)
    h, w = a.shape
    yy, xx = np.mgrid[0:h, 0:w]
    light = 1.0 - 0.55 * (0.65 * xx / w + 0.35 * yy / h) ** 1.3
    return Image.fromarray(np.minimum(a, 255 * light).astype("uint8"))


def save(img, name, fmt, dpi=DPI):
    path = os.path.join(OUT, name)
    if fmt == "png":
        img.save(path, "PNG", dpi=(dpi, dpi), optimize=True)
    else:
        img.save(path, "JPEG", quality=45, dpi=(dpi, dpi))
    return path


def main():
    if os.path.isdir(OUT):
        for f in os.listdir(OUT):
            os.remove(os.path.join(OUT, f))
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(20261122)
    entries = []
    docs = []
    for d in DEEDS:
        img, lines = render_deed(d)
        docs.append(("deed", d["name"], img, lines, d["fields"], ["clean", "skew+4.0", "noisy", "lowres", "uneven", "rot90"]))
    for d in OPTOUTS:
        img, lines = render_optout(d)
        docs.append(("optout", d["name"], img, lines, d["fields"], ["clean", "skew-6.5", "noisy", "lowres", "uneven", "rot180"]))
    for d in IDS:
        img, lines, fields = render_id(d)
        docs.append(("id", d["name"], img, lines, fields, ["clean", "skew+2.5", "noisy", "lowres", "rot180"]))
    for kind, name, img, lines, fields, variants in docs:
        for v in variants:
            dpi = DPI
            fmt = "png"
            if v == "clean":
                out = img
            elif v.startswith("skew"):
                out = skew(img, float(v[4:]))
            elif v == "noisy":
                out, fmt = noisy(img, rng), "jpg"
            elif v == "lowres":
                out, dpi = lowres(img), DPI // 2
            elif v == "uneven":
                out = uneven(img)
            elif v.startswith("rot"):
                out = img.rotate(-int(v[3:]), expand=True)   # clockwise, as a scanner would feed it
            file = f"{name}.{v.replace('+', 'p').replace('-', 'm')}.{fmt}"
            save(out, file, fmt, dpi)
            entries.append({"file": file, "document": name, "kind": kind, "variant": v.split("+")[0].split("-")[0]
                            if not v.startswith("rot") else "rotated", "transform": v, "dpi": dpi,
                            "width": out.width, "height": out.height})
        truth = {"document": name, "kind": kind, "lines": [l for l in lines if l], "fields": fields}
        with open(os.path.join(OUT, f"{name}.truth.json"), "w") as fh:
            json.dump(truth, fh, indent=1)
            fh.write("\n")
    # Malformed inputs.
    open(os.path.join(OUT, "bad_not_an_image.png"), "wb").write(b"this is text, not a PNG\n" * 10)
    open(os.path.join(OUT, "bad_empty.png"), "wb").write(b"")
    png = io.BytesIO()
    docs[0][2].save(png, "PNG")
    open(os.path.join(OUT, "bad_truncated.png"), "wb").write(png.getvalue()[:4000])
    # A PNG whose header claims 60000 × 60000 pixels (3.6 gigapixels) in a few hundred bytes.
    import struct
    import zlib
    def chunk(t, data):
        return struct.pack(">I", len(data)) + t + data + struct.pack(">I", zlib.crc32(t + data) & 0xFFFFFFFF)
    huge = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 0, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")
    open(os.path.join(OUT, "bad_huge_header.png"), "wb").write(huge)
    for f, err in [("bad_not_an_image.png", "unreadable"), ("bad_empty.png", "unreadable"),
                   ("bad_truncated.png", "unreadable"), ("bad_huge_header.png", "too_large")]:
        entries.append({"file": f, "kind": "malformed", "expect_error": err})
    # A two-page TIFF (the two opt-out forms) for multi-page loading.
    pages = [lowres(d[2]) for d in docs if d[0] == "optout"]
    pages[0].save(os.path.join(OUT, "optout_both.multipage.tif"), save_all=True, append_images=pages[1:],
                  compression="tiff_lzw", dpi=(150, 150))
    entries.append({"file": "optout_both.multipage.tif", "kind": "multipage", "pages": ["optout_form", "optout_letter"],
                    "dpi": 150})
    with open(os.path.join(OUT, "manifest.json"), "w") as fh:
        json.dump({"generator": "scripts/make-test-documents", "images": entries}, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
