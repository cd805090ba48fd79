#!/usr/bin/env python3
"""Generates the document-field corpus: deeds, ID cards (visual zone only, no MRZ) and data-broker
opt-out requests drawn from layout *families*, with label synonyms and narrative phrasings, fonts
from Debian packages, names from many cultures, consistent US addresses (state and ZIP agree), and
one simulated capture per page (flatbed, skewed flatbed, fax, photocopy, shadow, phone photo).

    scripts/make-doc-corpus out/doc-corpus [--split dev|test|all] [--count N] [--seed S[,S...]] [--capture CAPTURE]

Writes OUT/<split>/NAME.png|.jpg and NAME.truth.json:
    {"file", "kind": "deed|id|optout|unknown", "family", "capture", "split", "font",
     "fields": {name: expected value, normalised as the engine reports it},
     "lines": [the text as printed, in reading order], "capture_params": {...}}
and OUT/<split>/manifest.json (every truth, in order). Deterministic for a given seed and count.

The dev and test splits share no layout family, font, phrasing variant or seed: tune on dev,
report on test. The corpus is generated at benchmark time and never committed.
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys
import time

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The MRZ corpus owns the capture simulation and the names of many cultures; reuse them.
from mrz_corpus import NAMES, add_noise, background_texture, capture as mrz_capture, motion_blur, warp_onto  # noqa: E402

FONT_DIR = "/usr/share/fonts/truetype"
# (regular, bold); no font is shared between the splits (a path from / is outside FONT_DIR).
FONTS = {
    "dev": [("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf"),
            ("dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSerif-Bold.ttf"),
            ("dejavu/DejaVuSansCondensed.ttf", "dejavu/DejaVuSansCondensed-Bold.ttf"),
            ("liberation2/LiberationSans-Regular.ttf", "liberation2/LiberationSans-Bold.ttf"),
            ("liberation2/LiberationSerif-Regular.ttf", "liberation2/LiberationSerif-Bold.ttf"),
            ("liberation2/LiberationMono-Regular.ttf", "liberation2/LiberationMono-Bold.ttf"),
            # Thin, light and narrow faces (the test split has a light condensed face and a thin
            # monospace one; these are other families of the same build): strokes of a pixel or
            # two that a fax or a photocopy breaks.
            ("dejavu/DejaVuSans-ExtraLight.ttf", "dejavu/DejaVuSans-Bold.ttf"),
            ("lato/Lato-Light.ttf", "lato/Lato-Bold.ttf"),
            ("roboto/unhinted/RobotoCondensed-Light.ttf", "roboto/unhinted/RobotoCondensed-Bold.ttf"),
            ("/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Regular.otf", "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Bold.otf"),
            ("/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf", "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf")],
    "test": [("freefont/FreeSans.ttf", "freefont/FreeSansBold.ttf"),
             ("freefont/FreeSerif.ttf", "freefont/FreeSerifBold.ttf"),
             ("freefont/FreeMono.ttf", "freefont/FreeMonoBold.ttf"),
             ("crosextra/Carlito-Regular.ttf", "crosextra/Carlito-Bold.ttf"),
             ("crosextra/Caladea-Regular.ttf", "crosextra/Caladea-Bold.ttf"),
             ("open-sans/OpenSans-Regular.ttf", "open-sans/OpenSans-Bold.ttf"),
             ("open-sans/OpenSans-CondLight.ttf", "open-sans/OpenSans-CondBold.ttf")],
}

FAMILIES = {
    "dev": {"deed": ["deed-narrative", "deed-boxed", "deed-stacked", "deed-inline"],
            "optout": ["optout-letter", "optout-boxed", "optout-inline", "optout-stacked"],
            "id": ["id-card-stacked", "id-passport-page"]},
    "test": {"deed": ["deed-parties-table", "deed-letterhead", "deed-inline3", "deed-presents"],
             "optout": ["optout-letterhead", "optout-table", "optout-inline3", "optout-checklist"],
             "id": ["id-driver-license", "id-card-inline"]},
}
# Families added later, appended after a split's first documents so that those stay as they were
# (committed fixtures are rendered from them by index): count // 3 documents each.
LATER_FAMILIES = {"dev": {"id": ["id-residence-permit", "id-driver-licence"],
                          "optout": ["optout-broker-header", "optout-grid", "optout-row-pairs"],
                          "deed": ["deed-party-columns"]}, "test": {}}
CAPTURES = ["flatbed", "flatbed-skew", "fax", "photocopy", "shadow", "phone"]

# ----------------------------------------------------------------------------------------------
# Content

# (city, state code, state name, county, ZIP) — real ZIPs of each city, so state and ZIP agree.
PLACES = [
    ("Springfield", "IL", "Illinois", "Sangamon", "62701"), ("Austin", "TX", "Texas", "Travis", "78701"),
    ("Portland", "OR", "Oregon", "Multnomah", "97205"), ("Tucson", "AZ", "Arizona", "Pima", "85701"),
    ("Columbus", "OH", "Ohio", "Franklin", "43215"), ("Raleigh", "NC", "North Carolina", "Wake", "27601"),
    ("Boise", "ID", "Idaho", "Ada", "83702"), ("Madison", "WI", "Wisconsin", "Dane", "53703"),
    ("Albany", "NY", "New York", "Albany", "12207"), ("Sacramento", "CA", "California", "Sacramento", "95814"),
    ("Denver", "CO", "Colorado", "Denver", "80202"), ("Tampa", "FL", "Florida", "Hillsborough", "33602"),
    ("Savannah", "GA", "Georgia", "Chatham", "31401"), ("Burlington", "VT", "Vermont", "Chittenden", "05401"),
    ("Lexington", "KY", "Kentucky", "Fayette", "40507"), ("Omaha", "NE", "Nebraska", "Douglas", "68102"),
    ("Reno", "NV", "Nevada", "Washoe", "89501"), ("Santa Fe", "NM", "New Mexico", "Santa Fe", "87501"),
    ("Spokane", "WA", "Washington", "Spokane", "99201"), ("Providence", "RI", "Rhode Island", "Providence", "02903"),
    ("Charleston", "SC", "South Carolina", "Charleston", "29401"), ("Baton Rouge", "LA", "Louisiana", "East Baton Rouge", "70801"),
    ("Des Moines", "IA", "Iowa", "Polk", "50309"), ("Salt Lake City", "UT", "Utah", "Salt Lake", "84111"),
    ("Anchorage", "AK", "Alaska", "Anchorage", "99501"), ("Nashville", "TN", "Tennessee", "Davidson", "37203"),
    ("Ann Arbor", "MI", "Michigan", "Washtenaw", "48104"), ("St. Paul", "MN", "Minnesota", "Ramsey", "55102"),
    ("Wichita", "KS", "Kansas", "Sedgwick", "67202"), ("Pittsburgh", "PA", "Pennsylvania", "Allegheny", "15222"),
    ("Newark", "NJ", "New Jersey", "Essex", "07102"), ("Hartford", "CT", "Connecticut", "Hartford", "06103"),
    ("Billings", "MT", "Montana", "Yellowstone", "59101"), ("Little Rock", "AR", "Arkansas", "Pulaski", "72201"),
]
STREETS = ["Main", "Oak", "Maple", "Cedar", "Elm", "Washington", "Lakeview", "Hillcrest", "Sunset", "Park", "Willow",
           "Chestnut", "Magnolia", "Riverside", "Pine Ridge", "Juniper", "Mill Creek", "Highland", "Birch", "Harbor"]
SUFFIXES = ["Street", "Avenue", "Road", "Drive", "Lane", "Court", "Boulevard", "Way", "Place", "Terrace"]
BROKERS = ["Spokeo", "Whitepages", "BeenVerified", "Intelius", "PeopleFinders", "Radaris", "MyLife", "TruthFinder",
           "Instant Checkmate", "FastPeopleSearch", "PeopleLooker", "USPhoneBook", "Acxiom", "Epsilon Data",
           "CheckPeople", "Nuwber", "ThatsThem", "ClustrMaps"]
OPTIONS = [("delete", ["Delete my personal information", "Erase all records about me", "Remove my listing"]),
           ("do_not_sell", ["Do not sell or share my personal information", "Stop selling my data"]),
           ("opt_out_marketing", ["Opt me out of marketing lists", "No marketing contact"]),
           ("access", ["Send me a copy of my data", "Tell me what you hold about me"])]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def person(rng):
    culture = rng.choice([c for c in NAMES if c != "mononym"])
    sur, giv = NAMES[culture]
    return rng.choice(giv), rng.choice(sur), culture


def full_name(rng, upper=False):
    g, s, _ = person(rng)
    n = f"{g} {s}".strip()
    return n.upper() if upper else n


def address(rng):
    city, st, stname, county, z = rng.choice(PLACES)
    street = f"{rng.randint(1, 9899)} {rng.choice(STREETS)} {rng.choice(SUFFIXES)}"
    if rng.random() < 0.2:
        street += rng.choice([f", Apt {rng.randint(1, 40)}", f", Unit {rng.randint(1, 9)}{rng.choice('ABC')}"])
    return dict(street=street, city=city, state=st, state_name=stname, county=county, zip=z)


def date(rng, y0, y1):
    return rng.randint(y0, y1), rng.randint(1, 12), rng.randint(1, 28)


def iso(d):
    return f"{d[0]:04d}-{d[1]:02d}-{d[2]:02d}"


def fmt_date(d, rng, styles):
    y, m, dd = d
    s = rng.choice(styles)
    return {"long": f"{MONTHS[m - 1]} {dd}, {y}", "dmy": f"{dd} {MONTHS[m - 1]} {y}", "us": f"{m:02d}/{dd:02d}/{y}",
            "iso": iso(d), "short": f"{MONTHS[m - 1][:3]} {dd}, {y}", "dmy-short": f"{dd:02d} {MONTHS[m - 1][:3].upper()} {y}",
            "dots": f"{m:02d}.{dd:02d}.{y}"}[s]


def phone(rng):
    a, b, c = rng.randint(201, 989), rng.randint(200, 999), rng.randint(0, 9999)
    return f"{a}{b}{c:04d}", rng.choice([f"({a}) {b}-{c:04d}", f"{a}-{b}-{c:04d}", f"{a}.{b}.{c:04d}"])


def ascii_fold(s):
    import unicodedata
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch))


def email_for(name, rng):
    base = "".join(ch for ch in ascii_fold(name).lower() if ch.isalnum() or ch == " ").split()
    local = rng.choice([".".join(base[:2]), base[0] + str(rng.randint(1, 99)), (base[0][0] + base[-1])])
    return f"{local}@{rng.choice(['example.com', 'mail.example.org', 'inbox.example.net'])}"


# ----------------------------------------------------------------------------------------------
# Drawing

class Page:
    """A white page at 300 DPI with a cursor; records every printed line for the text truth."""

    def __init__(self, rng, split, w_in=8.5, h_in=11.0, dpi=300):
        self.dpi = dpi
        self.img = Image.new("RGB", (int(w_in * dpi), int(h_in * dpi)), "white")
        self.d = ImageDraw.Draw(self.img)
        reg, bold = rng.choice(FONTS[split])
        self.font_name = os.path.basename(reg)
        pt = rng.uniform(11, 13.5)
        self.size = int(pt * dpi / 72)
        self.f = ImageFont.truetype(os.path.join(FONT_DIR, reg), self.size)
        self.fb = ImageFont.truetype(os.path.join(FONT_DIR, bold), self.size)
        self.fh = ImageFont.truetype(os.path.join(FONT_DIR, bold), int(self.size * 1.5))
        self.fs = ImageFont.truetype(os.path.join(FONT_DIR, reg), int(self.size * 0.8))
        self.margin = int(rng.uniform(0.8, 1.1) * dpi)
        self.x, self.y = self.margin, self.margin
        self.lines = []
        self.lead = 1.45

    def text(self, x, y, s, font=None, record=True):
        font = font or self.f
        # Text that would run past the paper is set smaller to fit, as a form prints a long URL or
        # name whole: drawn past the edge, the truth would hold characters the page does not show.
        right = self.img.width - self.margin // 2
        w = self.d.textlength(s, font=font)
        if x + w > right and right - x > w / 3:
            font = ImageFont.truetype(font.path, int(font.size * (right - x) / w))
        self.d.text((x, y), s, font=font, fill=(20, 20, 25))
        if record:
            self.lines.append(s)
        return self.d.textlength(s, font=font)

    def line(self, s, font=None, indent=0, gap=1.0):
        font = font or self.f
        self.text(self.margin + indent, self.y, s, font)
        self.y += int(font.size * self.lead * gap)

    def para(self, s, font=None, width=None):
        font = font or self.f
        width = width or self.img.width - 2 * self.margin
        words, cur = s.split(), ""
        for w in words:
            t = (cur + " " + w).strip()
            if self.d.textlength(t, font=font) > width and cur:
                self.line(cur, font)
                cur = w
            else:
                cur = t
        if cur:
            self.line(cur, font)

    def skip(self, k=0.6):
        self.y += int(self.size * k * self.lead)

    def pairs(self, items, sep=": ", cols=None):
        """Several `label: value` pairs on one line, in columns."""
        width = self.img.width - 2 * self.margin
        right = self.img.width - self.margin // 2
        cols = cols or len(items)
        x = self.margin
        parts, col = [], 0
        for lab, val in items:
            cx = self.margin + int(width * col / cols)
            x = max(cx, x)
            # A pair that would run off the paper starts a line of its own, as a typed form wraps
            # it (drawn past the edge, the truth would hold a value the page does not show).
            need = self.d.textlength(lab + sep, font=self.fb) + self.d.textlength(val, font=self.f)
            if parts and x + need > right:
                self.lines.append(" ".join(parts))
                self.y += int(self.size * self.lead)
                parts, col, x = [], 0, self.margin
            x += self.text(x, self.y, lab + sep, self.fb, record=False)
            x += self.text(x, self.y, val, record=False) + self.size
            parts.append(f"{lab}{sep}{val}")
            col += 1
        self.lines.append(" ".join(parts))
        self.y += int(self.size * self.lead)

    def box_row(self, cells, h_lines=1, label_above=True):
        """A row of bordered cells [(label, value, fraction of width)]; label small on top, value below."""
        width = self.img.width - 2 * self.margin
        x, pad = self.margin, int(self.size * 0.3)
        hh = int(self.fs.size * 1.3 + self.size * 1.4 * h_lines + pad * 2)
        texts = []
        for lab, val, frac in cells:
            w = int(width * frac)
            self.d.rectangle([x, self.y, x + w, self.y + hh], outline=(30, 30, 30), width=3)
            if label_above:
                self.text(x + pad, self.y + pad, lab, self.fs, record=False)
                for k, vl in enumerate(val.split("\n")):
                    self.text(x + pad, self.y + pad + int(self.fs.size * 1.4) + k * int(self.size * 1.35), vl, record=False)
            else:
                self.text(x + pad, self.y + pad, lab + ":", self.fb, record=False)
                self.text(x + pad + self.d.textlength(lab + ": ", font=self.fb), self.y + pad, val, record=False)
            texts.append((lab, val))
            x += w
        self.lines.append(" ".join(lab for lab, _ in texts))
        self.lines.append(" ".join(v.replace("\n", " ") for _, v in texts))
        self.y += hh

    def table(self, rows, frac=0.35):
        """Two bordered columns: label | value."""
        width = self.img.width - 2 * self.margin
        pad = int(self.size * 0.35)
        lw = int(width * frac)
        for lab, val in rows:
            vals = val.split("\n")
            hh = int(self.size * 1.35 * len(vals) + 2 * pad)
            self.d.rectangle([self.margin, self.y, self.margin + lw, self.y + hh], outline=(30, 30, 30), width=3)
            self.d.rectangle([self.margin + lw, self.y, self.margin + width, self.y + hh], outline=(30, 30, 30), width=3)
            self.text(self.margin + pad, self.y + pad, lab, self.fb, record=False)
            for k, v in enumerate(vals):
                self.text(self.margin + lw + pad, self.y + pad + k * int(self.size * 1.35), v, record=False)
            self.lines.append(f"{lab} {val.replace(chr(10), ' ')}")
            self.y += hh

    def checkbox(self, label, ticked, style):
        s = self.size
        x, y = self.margin + s, self.y + int(s * 0.15)
        if style == "box":
            self.d.rectangle([x, y, x + int(s * 0.8), y + int(s * 0.8)], outline=(20, 20, 20), width=3)
            if ticked:
                self.d.line([x + 4, y + 4, x + int(s * 0.8) - 4, y + int(s * 0.8) - 4], fill=(20, 20, 20), width=5)
                self.d.line([x + int(s * 0.8) - 4, y + 4, x + 4, y + int(s * 0.8) - 4], fill=(20, 20, 20), width=5)
            self.text(x + int(s * 1.3), self.y, label, record=False)
            self.lines.append(("X " if ticked else "") + label)
        elif style in ("check", "filled"):
            # A drawn box ticked with a check mark or filled in: ink, not a character, so the text
            # truth holds the label alone.
            self.d.rectangle([x, y, x + int(s * 0.8), y + int(s * 0.8)], outline=(20, 20, 20), width=3)
            if ticked and style == "check":
                self.check_mark(x, y)
            elif ticked:
                self.d.rectangle([x + 7, y + 7, x + int(s * 0.8) - 7, y + int(s * 0.8) - 7], fill=(25, 25, 25))
            self.text(x + int(s * 1.3), self.y, label, record=False)
            self.lines.append(label)
        else:   # typed brackets
            mark = "[X]" if ticked else "[ ]"
            self.text(x, self.y, f"{mark} {label}", record=False)
            self.lines.append(f"{mark} {label}")
        self.y += int(s * self.lead)

    def check_mark(self, x, y):
        """A hand-drawn tick over the box at (x, y), running out past its top right corner."""
        s = self.size
        self.d.line([x + int(s * 0.12), y + int(s * 0.42), x + int(s * 0.35), y + int(s * 0.68),
                     x + int(s * 0.95), y - int(s * 0.15)], fill=(20, 20, 20), width=6, joint="curve")

    def fit(self, x, y, s, width, font=None):
        """Text set smaller when it would overflow `width` (a cell); not recorded."""
        font = font or self.f
        w = self.d.textlength(s, font=font)
        if w > width:
            font = ImageFont.truetype(font.path, max(8, int(font.size * width / w)))
        self.d.text((x, y), s, font=font, fill=(20, 20, 25))

    def grid(self, rows, label_frac=0.2, shade=False):
        """A ruled grid of label | value cells, one or two pairs per row [(label, value), ...]."""
        width = self.img.width - 2 * self.margin
        pad = int(self.size * 0.35)
        hh = int(self.size * 1.35 + 2 * pad)
        for pairs in rows:
            n = len(pairs)
            x = self.margin
            for lab, val in pairs:
                lw = int(width * label_frac)
                vw = int(width / n) - lw
                self.d.rectangle([x, self.y, x + lw, self.y + hh], outline=(30, 30, 30), width=3,
                                 fill=(225, 225, 225) if shade else None)
                self.d.rectangle([x + lw, self.y, x + lw + vw, self.y + hh], outline=(30, 30, 30), width=3)
                self.fit(x + pad, self.y + pad, lab, lw - 2 * pad, self.fb)
                self.fit(x + lw + pad, self.y + pad, val, vw - 2 * pad)
                x += lw + vw
            self.lines.append(" ".join(f"{lab} {val}" for lab, val in pairs))
            self.y += hh

    def option_row(self, items, style):
        """Request options side by side on one line: [(label, ticked)]."""
        s = self.size
        x, parts = self.margin, []
        for label, ticked in items:
            if style == "brackets":
                mark = "[X]" if ticked else "[ ]"
                x += self.text(x, self.y, f"{mark} {label}", record=False) + 2 * s
                parts.append(f"{mark} {label}")
            else:
                y = self.y + int(s * 0.15)
                self.d.rectangle([x, y, x + int(s * 0.8), y + int(s * 0.8)], outline=(20, 20, 20), width=3)
                if ticked:
                    self.check_mark(x, y)
                x += int(s * 1.3)
                x += self.text(x, self.y, label, record=False) + 2 * s
                parts.append(label)
        self.lines.append(" ".join(parts))
        self.y += int(s * self.lead)

    def signature(self, rng):
        x0, y0 = self.margin + rng.randint(0, 300), self.y
        pts = [(x0 + i * 18, y0 + 40 + int(25 * math.sin(i / rng.uniform(1.2, 2.5)) + rng.randint(-8, 8))) for i in range(35)]
        self.d.line(pts, fill=(30, 40, 120), width=4)
        self.y += 110

    def stamp(self, rng, text):
        """A rotated red stamp over the page (not part of the text truth)."""
        f = ImageFont.truetype(self.fb.path, int(self.size * 1.3))
        w = int(self.d.textlength(text, font=f)) + 60
        st = Image.new("RGBA", (w, int(f.size * 2.2)), (0, 0, 0, 0))
        sd = ImageDraw.Draw(st)
        sd.rectangle([4, 4, w - 5, st.height - 5], outline=(200, 30, 30, 170), width=6)
        sd.text((30, int(f.size * 0.5)), text, font=f, fill=(200, 30, 30, 170))
        st = st.rotate(rng.uniform(-25, 25), expand=True)
        x = rng.randint(self.img.width // 2, max(self.img.width // 2 + 1, self.img.width - st.width - 50))
        y = rng.randint(self.margin, max(self.margin + 1, self.img.height - st.height - 100))
        self.img.paste(st, (x, y), st)


# ----------------------------------------------------------------------------------------------
# Kinds

def pick(rng, split, options):
    """Half of each phrasing list belongs to each split (even indices dev, odd test) when it has
    at least two; shorter lists are shared."""
    if len(options) >= 2:
        options = options[0::2] if split == "dev" else options[1::2]
    return rng.choice(options)


DEED_TITLES = ["WARRANTY DEED", "GRANT DEED", "QUITCLAIM DEED", "SPECIAL WARRANTY DEED", "DEED OF CONVEYANCE", "BARGAIN AND SALE DEED"]
LAB = {
    "grantor": ["Grantor", "Grantor(s)", "Seller", "Grantor Name", "Transferor", "Conveyed by"],
    "grantee": ["Grantee", "Grantee(s)", "Buyer", "Grantee Name", "Transferee", "Conveyed to"],
    "parcel_number": ["APN", "Parcel No.", "Assessor's Parcel Number", "Parcel ID", "Tax Parcel Number", "PIN"],
    "recording_date": ["Recording Date", "Date Recorded", "Recorded on", "Recorded", "Filed for record", "Record Date"],
    "instrument_number": ["Instrument No.", "Document No.", "Instrument Number", "Doc #", "Document Number", "Instrument #"],
    "consideration": ["Consideration", "Purchase Price", "Sale Price", "Amount Paid", "Total Consideration", "Price"],
    "property_address": ["Property Address", "Property Location", "Premises", "Site Address", "Situs Address", "Commonly known as"],
    "county": ["County"], "state": ["State"],
    "full_name": ["Full Name", "Name", "Your Name", "Requester Name", "Name of Requester", "Consumer Name"],
    "email": ["Email", "E-mail Address", "Email Address", "E-mail", "Contact Email", "Your Email"],
    "phone": ["Phone", "Telephone", "Phone Number", "Tel.", "Mobile", "Contact Phone"],
    "street_address": ["Street Address", "Address", "Mailing Address", "Street", "Home Address", "Residential Address"],
    "city": ["City", "City/Town", "Town"], "zip": ["ZIP Code", "ZIP", "Postal Code", "Zip"],
    "date_of_birth": ["Date of Birth", "DOB", "Birth Date", "Born", "Birthdate", "D.O.B."],
    "listing_url": ["Listing URL", "Profile URL", "URL of Listing", "Link to Profile", "Web Address of Listing", "Page URL"],
    "request_id": ["Request ID", "Reference No.", "Ref.", "Case Number", "Ticket #", "Reference"],
    "date": ["Date", "Date of Request", "Request Date", "Dated", "Submitted", "Date Sent"],
}


def lab(rng, split, field):
    return pick(rng, split, LAB[field])


def deed_content(rng):
    prop = address(rng)
    grantor = full_name(rng, upper=rng.random() < 0.7)
    if rng.random() < 0.25:
        grantor += " and " + full_name(rng, upper=grantor.isupper())
    grantee = full_name(rng, upper=grantor.isupper())
    rec = date(rng, 1995, 2025)
    price = rng.randint(40, 2500) * 1000 + rng.choice([0, 0, 0, 500])
    apn = rng.choice([f"{rng.randint(100, 999)}-{rng.randint(10, 99)}-{rng.randint(100, 999)}",
                      f"{rng.randint(10, 99)}-{rng.randint(1000, 9999)}-{rng.randint(100, 999)}-{rng.randint(10, 99)}",
                      f"{rng.randint(1000000, 9999999)}"])
    inst = rng.choice([f"{rec[0]}-{rng.randint(100000, 999999)}", f"{rng.randint(10000000, 99999999)}",
                       f"{rec[0]}{rng.randint(1000000, 9999999)}"])
    return dict(prop=prop, grantor=grantor, grantee=grantee, rec=rec, price=price, apn=apn, inst=inst)


def money(p):
    return f"${p:,.2f}"


def deed_truth(c):
    a = c["prop"]
    return {"grantor": c["grantor"], "grantee": c["grantee"], "parcel_number": c["apn"], "recording_date": iso(c["rec"]),
            "instrument_number": c["inst"], "county": a["county"], "state": a["state"],
            "property_address": f"{a['street']}, {a['city']}, {a['state']} {a['zip']}", "consideration": float(c["price"])}


def legal(rng, c):
    return (f"Lot {rng.randint(1, 60)}, Block {rng.randint(1, 20)}, of {rng.choice(STREETS)} "
            f"{rng.choice(['Estates', 'Addition', 'Subdivision', 'Heights'])}, according to the plat thereof recorded in "
            f"Plat Book {rng.randint(1, 200)}, Page {rng.randint(1, 300)}, records of {c['prop']['county']} County.")


def render_deed(rng, split, family):
    p = Page(rng, split)
    c = deed_content(rng)
    a = c["prop"]
    ds = ["long", "us", "iso", "dmy"] if split == "dev" else ["long", "short", "us", "dmy-short"]
    rec = fmt_date(c["rec"], rng, ds)
    addr1 = f"{a['street']}, {a['city']}, {a['state']} {a['zip']}"
    title = rng.choice(DEED_TITLES)
    L = lambda f: lab(rng, split, f)
    if family == "deed-letterhead":
        # a title company's own address at the top: never the property's
        tc = address(rng)
        p.line(f"{rng.choice(['First American', 'Pioneer', 'Summit', 'Heritage'])} Title Company", p.fb)
        p.line(f"{tc['street']}, {tc['city']}, {tc['state']} {tc['zip']}", p.fs)
        p.line(f"Tel. {phone(rng)[1]}", p.fs)
        p.skip()
    if family in ("deed-boxed", "deed-letterhead"):
        p.line("Recording requested by and when recorded mail to:", p.fs)
        p.line(full_name(rng), p.fs)
        p.skip(0.4)
        p.box_row([(L("recording_date"), rec, 0.5), (L("instrument_number"), c["inst"], 0.5)])
        p.box_row([(L("parcel_number"), c["apn"], 0.5), (L("consideration"), money(c["price"]), 0.5)])
        p.skip()
    p.line(title, p.fh)
    p.skip(0.3)
    if family == "deed-narrative":
        p.line(f"{L('parcel_number')}: {c['apn']}")
        p.line(f"{L('instrument_number')}: {c['inst']}   {L('recording_date')}: {rec}")
        p.skip(0.4)
        v = pick(rng, split, [0, 1, 2, 3])
        if v == 0:
            p.para(f'THIS DEED is made on {rec} by and between {c["grantor"]} (hereinafter "Grantor") and {c["grantee"]} '
                   f'(hereinafter "Grantee").')
            p.para(f"For a consideration of {money(c['price'])}, Grantor hereby grants to Grantee the real property in the "
                   f"County of {a['county']}, State of {a['state_name']}, described as follows:")
        else:
            p.para(f"{c['grantor']}, Grantor, for and in consideration of {money(c['price'])}, hereby grants to "
                   f"{c['grantee']}, Grantee, the real property in {a['county']} County, State of {a['state_name']}, described as:")
        p.para(legal(rng, c))
        p.para(f"{L('property_address')}: {addr1}")
    elif family == "deed-presents":
        p.line(f"{L('parcel_number')}: {c['apn']}    {L('instrument_number')}: {c['inst']}")
        p.line(f"{L('recording_date')}: {rec}")
        p.skip(0.4)
        if rng.random() < 0.5:
            p.para(f'KNOW ALL MEN BY THESE PRESENTS, that {c["grantor"]} ("Grantor"), for and in consideration of the sum of '
                   f'{money(c["price"])}, does hereby grant, bargain, sell and convey unto {c["grantee"]} ("Grantee") the '
                   f'following real property situated in the County of {a["county"]}, State of {a["state_name"]}:')
        else:
            p.para(f'{c["grantor"]} ("Grantor"), for {money(c["price"])} in hand paid, conveys and warrants to '
                   f'{c["grantee"]} ("Grantee") the following real estate in {a["county"]} County, State of {a["state_name"]}:')
        p.para(legal(rng, c))
        p.para(f"Commonly known as {addr1}.")
    elif family == "deed-parties-table":
        p.line(f"{L('recording_date')}: {rec}    {L('instrument_number')}: {c['inst']}")
        p.skip(0.4)
        p.box_row([("GRANTOR", c["grantor"].replace(" and ", "\nand "), 0.5),
                   ("GRANTEE", c["grantee"], 0.5)], h_lines=2 if " and " in c["grantor"] else 1)
        p.skip(0.4)
        p.table([(L("parcel_number"), c["apn"]), (L("consideration"), money(c["price"])),
                 (L("property_address"), f"{a['street']}\n{a['city']}, {a['state']} {a['zip']}"),
                 ("County", a["county"]), ("State", a["state_name"])])
        p.skip()
        p.para("The Grantor conveys the property described below to the Grantee, with all rights and appurtenances.")
        p.para(legal(rng, c))
    elif family == "deed-stacked":
        p.line(f"{L('parcel_number')}: {c['apn']}")
        p.line(f"{L('recording_date')}: {rec}")
        p.line(f"{L('instrument_number')}: {c['inst']}")
        p.skip(0.4)
        for role in ("grantor", "grantee"):
            p.line(L(role).upper() + ("(S):" if not L(role).endswith(")") and rng.random() < 0.5 else ":"), p.fb)
            p.line(c[role], indent=p.size)
            p.skip(0.3)
        p.line(f"{L('consideration')}: {money(c['price'])}")
        p.line(f"County of {a['county']}, State of {a['state_name']}")
        p.line(L("property_address").upper() + ":", p.fb)
        p.line(a["street"], indent=p.size)
        p.line(f"{a['city']}, {a['state']} {a['zip']}", indent=p.size)
        p.skip(0.4)
        p.para("The grantor hereby conveys the above property, legally described as " + legal(rng, c))
    elif family in ("deed-inline", "deed-inline3", "deed-boxed", "deed-letterhead"):
        if family == "deed-inline":
            p.pairs([(L("recording_date"), rec), (L("instrument_number"), c["inst"])])
            p.pairs([(L("parcel_number"), c["apn"]), (L("consideration"), money(c["price"]))])
            p.pairs([("County", a["county"]), ("State", a["state_name"])])
        elif family == "deed-inline3":
            p.pairs([(L("recording_date"), rec), (L("instrument_number"), c["inst"]), (L("parcel_number"), c["apn"])])
            p.pairs([("County", a["county"]), ("State", a["state"]), (L("consideration"), money(c["price"]))])
        else:
            p.line(f"County of {a['county']}, State of {a['state_name']}")
        p.skip(0.4)
        p.line(f"{L('grantor')}: {c['grantor']}")
        p.line(f"{L('grantee')}: {c['grantee']}")
        p.line(f"{L('property_address')}: {addr1}")
        p.skip(0.4)
        p.para("The grantor conveys to the grantee, with all appurtenances, the property legally described as " + legal(rng, c))
    elif family == "deed-party-columns":
        # The parties in a ruled two-column table, a role heading over each column and the names
        # under it (two grantors on two lines); the rest in a label | value grid.
        heads = rng.choice([("GRANTOR(S)", "GRANTEE(S)"), ("SELLER", "BUYER"), ("TRANSFEROR", "TRANSFEREE"),
                            ("FROM (GRANTOR)", "TO (GRANTEE)")])
        width = p.img.width - 2 * p.margin
        pad = int(p.size * 0.35)
        left = c["grantor"].split(" and ")
        right = [c["grantee"]]
        hh = int(p.size * 1.35 + 2 * pad)
        p.d.rectangle([p.margin, p.y, p.margin + width, p.y + hh], outline=(30, 30, 30), width=3, fill=(230, 230, 230) if rng.random() < 0.4 else None)
        p.d.line([p.margin + width // 2, p.y, p.margin + width // 2, p.y + hh], fill=(30, 30, 30), width=3)
        p.fit(p.margin + pad, p.y + pad, heads[0], width // 2 - 2 * pad, p.fb)
        p.fit(p.margin + width // 2 + pad, p.y + pad, heads[1], width // 2 - 2 * pad, p.fb)
        p.lines.append(f"{heads[0]} {heads[1]}")
        p.y += hh
        n = max(len(left), len(right))
        bh = int(p.size * 1.35 * n + 2 * pad)
        p.d.rectangle([p.margin, p.y, p.margin + width, p.y + bh], outline=(30, 30, 30), width=3)
        p.d.line([p.margin + width // 2, p.y, p.margin + width // 2, p.y + bh], fill=(30, 30, 30), width=3)
        for k in range(n):
            y = p.y + pad + k * int(p.size * 1.35)
            lt = ("and " if k > 0 else "") + left[k] if k < len(left) else ""
            rt = right[k] if k < len(right) else ""
            p.fit(p.margin + pad, y, lt, width // 2 - 2 * pad)
            p.fit(p.margin + width // 2 + pad, y, rt, width // 2 - 2 * pad)
            p.lines.append(" ".join(t for t in (lt, rt) if t))
        p.y += bh
        p.skip(0.6)
        rows = [[(L("recording_date"), rec), (L("instrument_number"), c["inst"])],
                [(L("parcel_number"), c["apn"]), (L("consideration"), money(c["price"]))],
                [("County", a["county"]), ("State", rng.choice([a["state"], a["state_name"]]))],
                [(L("property_address"), addr1)]]
        if rng.random() < 0.5:
            rows = [r_ for row in rows for r_ in ([row] if len(row) == 1 else [[row[0]], [row[1]]])]
        p.grid(rows, label_frac=rng.uniform(0.22, 0.3), shade=rng.random() < 0.4)
        p.skip(0.5)
        p.para(rng.choice(["The party named as grantor above conveys to the party named as grantee the land described as ",
                           "For the consideration shown, the seller grants to the buyer the real property described as "]) + legal(rng, c))
    p.skip()
    p.line(f"Dated: {fmt_date(c['rec'], rng, ds)}")
    p.signature(rng)
    p.line(c["grantor"].split(" and ")[0] + ", Grantor", p.fs)
    if rng.random() < 0.4:
        p.stamp(rng, rng.choice(["RECORDED", "OFFICIAL COPY", "RECEIVED"]))
    return p, deed_truth(c)


def render_optout(rng, split, family):
    p = Page(rng, split)
    broker = rng.choice(BROKERS)
    name = full_name(rng)
    a = address(rng)
    em = email_for(name, rng)
    ph_digits, ph = phone(rng)
    dob = date(rng, 1940, 2004)
    req = date(rng, 2022, 2026)
    ds = ["long", "us", "iso", "dmy"] if split == "dev" else ["long", "short", "us", "dots"]
    slug = "-".join(ascii_fold(name).lower().split())
    url = f"https://www.{broker.lower().replace(' ', '')}.com/{rng.choice(['people', 'profile', 'p'])}/{slug}/{rng.randint(10000, 99999)}"
    rid = f"{rng.choice(['REQ', 'OPT', 'PR', 'CASE'])}-{rng.randint(100000, 999999)}"
    ticked = sorted(set(rng.sample([k for k, _ in OPTIONS], rng.randint(1, 3))))
    truth = {"data_broker": broker, "full_name": name, "email": em, "phone": ph_digits, "street_address": a["street"],
             "city": a["city"], "state": a["state"], "zip": a["zip"], "date": iso(req), "date_of_birth": iso(dob),
             "listing_url": url.lower(), "request_id": rid, "request_options": ",".join(ticked)}
    L = lambda f: lab(rng, split, f)
    state_val = a["state"] if rng.random() < 0.6 else a["state_name"]
    reqd, dobd = fmt_date(req, rng, ds), fmt_date(dob, rng, ds)

    def options(style):
        p.line(rng.choice(["I request the following:", "Please action the following:", "Request type (tick all that apply):"]))
        for k, labels in OPTIONS:
            p.checkbox(pick(rng, split, labels) if len(labels) > 1 else labels[0], k in ticked, style)

    if family == "optout-letterhead":
        # the broker's own form with its own address: never the requester's
        ba = address(rng)
        p.line(f"{broker}, Inc.", p.fh)
        p.line(f"{ba['street']}, {ba['city']}, {ba['state']} {ba['zip']}  ·  privacy@{broker.lower().replace(' ', '')}.com", p.fs)
        p.skip()
        p.line("PERSONAL INFORMATION REMOVAL REQUEST", p.fb)
        p.pairs([(L("date"), reqd), (L("request_id"), rid)])
        p.skip(0.4)
        p.line("Requester", p.fb)
        p.pairs([(L("full_name"), name), (L("date_of_birth"), dobd)])
        p.line(f"{L('street_address')}: {a['street']}")
        p.pairs([(L("city"), a["city"]), ("State", state_val), (L("zip"), a["zip"])])
        p.pairs([(L("email"), em), (L("phone"), ph)])
        p.line(f"{L('listing_url')}: {url}")
        p.skip(0.4)
        options("box")
    elif family == "optout-letter":
        p.line(name)
        p.line(a["street"])
        p.line(f"{a['city']}, {a['state']} {a['zip']}")
        p.skip()
        p.line(reqd)
        p.skip(0.4)
        p.line(f"To: {broker} Privacy Team")
        p.line(f"Re: Opt-out request {rid}")
        p.skip(0.4)
        p.para(f"Dear {broker} Privacy Team,")
        p.para("Under applicable privacy law I ask you to remove my personal information from your website and "
               "records. The details needed to find my listing are below.")
        p.line(f"{L('full_name')}: {name}")
        p.line(f"{L('date_of_birth')}: {dobd}")
        p.line(f"{L('email')}: {em}")
        p.line(f"{L('phone')}: {ph}")
        p.line(f"{L('listing_url')}: {url}")
        p.skip(0.4)
        options("brackets")
        p.skip(0.4)
        p.para("Sincerely,")
        p.signature(rng)
        p.line(name)
    elif family in ("optout-boxed", "optout-checklist"):
        p.line(f"OPT-OUT REQUEST FORM — {broker}" if family == "optout-boxed" else f"{broker} Privacy Request", p.fh)
        p.skip(0.4)
        p.box_row([(L("full_name"), name, 0.6), (L("date_of_birth"), dobd, 0.4)])
        p.box_row([(L("street_address"), a["street"], 1.0)])
        p.box_row([(L("city"), a["city"], 0.45), ("State", state_val, 0.3), (L("zip"), a["zip"], 0.25)])
        p.box_row([(L("email"), em, 0.6), (L("phone"), ph, 0.4)])
        p.box_row([(L("listing_url"), url, 1.0)])
        p.box_row([(L("date"), reqd, 0.5), (L("request_id"), rid, 0.5)])
        p.skip(0.5)
        options("box" if family == "optout-checklist" else rng.choice(["box", "brackets"]))
    elif family in ("optout-inline", "optout-inline3"):
        p.line(f"REMOVAL REQUEST — {broker}", p.fh)
        p.skip(0.4)
        if family == "optout-inline":
            p.pairs([(L("date"), reqd), (L("request_id"), rid)])
            p.pairs([(L("full_name"), name), (L("date_of_birth"), dobd)])
            p.line(f"{L('street_address')}: {a['street']}")
            p.pairs([(L("city"), a["city"]), ("State", state_val)])
            p.pairs([(L("zip"), a["zip"]), (L("phone"), ph)])
        else:
            p.pairs([(L("full_name"), name), (L("date_of_birth"), dobd), (L("date"), reqd)], cols=3)
            p.line(f"{L('street_address')}: {a['street']}")
            p.pairs([(L("city"), a["city"]), ("State", state_val), (L("zip"), a["zip"])])
            p.pairs([(L("phone"), ph), (L("request_id"), rid)])
        p.line(f"{L('email')}: {em}")
        p.line(f"{L('listing_url')}: {url}")
        p.skip(0.4)
        options("brackets")
    elif family == "optout-table":
        p.line(f"Data Deletion Request to {broker}", p.fh)
        p.skip(0.4)
        p.table([(L("full_name"), name), (L("street_address"), a["street"]), (L("city"), a["city"]), ("State", state_val),
                 (L("zip"), a["zip"]), (L("email"), em), (L("phone"), ph), (L("date_of_birth"), dobd),
                 (L("listing_url"), url), (L("date"), reqd), (L("request_id"), rid)], frac=0.3)
        p.skip(0.5)
        options("box")
    elif family == "optout-stacked":
        p.line(f"{broker} — Opt-Out Request", p.fh)
        p.skip(0.4)
        for f_, v in [("full_name", name), ("street_address", a["street"]), ("city", a["city"]), ("state", state_val),
                      ("zip", a["zip"]), ("email", em), ("phone", ph), ("date_of_birth", dobd), ("listing_url", url),
                      ("date", reqd), ("request_id", rid)]:
            p.line((L(f_) if f_ != "state" else "State").upper(), p.fs)
            p.line(v, indent=0)
            p.skip(0.2)
        options("box")
    elif family == "optout-broker-header":
        # The broker's own form: its name, street, city, phone, e-mail and web site head the page (left,
        # right or centred) and may stand again in a footer; the requester's details follow.
        b = address(rng)
        _, bph = phone(rng)
        dom = broker.lower().replace(" ", "")
        align = rng.choice(["left", "right", "center"])
        head = [(broker + rng.choice(["", "", ", Inc.", " LLC"]), p.fh), (b["street"], p.fs),
                (f"{b['city']}, {b['state_name'] if rng.random() < 0.3 else b['state']} {b['zip']}", p.fs),
                (rng.choice([f"Tel. {bph}", f"Phone {bph}", bph]), p.fs),
                (rng.choice([f"privacy@{dom}.com", f"www.{dom}.com", f"privacy@{dom}.com · www.{dom}.com"]), p.fs)]
        for text, font in head[:rng.randint(3, 5)]:
            w = p.d.textlength(text, font=font)
            x = {"left": p.margin, "right": p.img.width - p.margin - w, "center": (p.img.width - w) / 2}[align]
            p.text(int(x), p.y, text, font)
            p.y += int(font.size * 1.35)
        p.skip(1.0)
        p.line(rng.choice(["Consumer Opt-Out Form", "Personal Information Removal Request",
                           "Request to Delete or Stop the Sale of Personal Information"]), p.fb)
        p.para(rng.choice([f"Complete this form to ask {broker} to act on your personal information. "
                           "We will confirm by e-mail within 45 days.",
                           "Please tell us who you are so that we can find your records. Fields marked * are required."]))
        p.skip(0.4)
        p.line(rng.choice(["About you", "Requester information", "Your details", "Consumer"]), p.fb)
        rows = [("full_name", name), ("street_address", a["street"])]
        if rng.random() < 0.5:
            rows += [("city", a["city"]), ("state", state_val), ("zip", a["zip"])]
        rows += [("email", em), ("phone", ph), ("date_of_birth", dobd), ("listing_url", url)]
        for f_, v in rows:
            star = "*" if f_ in ("full_name", "email") and rng.random() < 0.5 else ""
            p.line(f"{(L(f_) if f_ != 'state' else 'State')}{star}: {v}")
        if not any(f_ == "city" for f_, _ in rows):
            p.pairs([(L("city"), a["city"]), ("State", state_val), (L("zip"), a["zip"])], cols=3)
        p.pairs([(L("date"), reqd), (L("request_id"), rid)])
        p.skip(0.4)
        options(rng.choice(["check", "filled", "brackets"]))
        if rng.random() < 0.5:
            p.y = max(p.y + p.size, p.img.height - p.margin - p.size)
            p.line(f"{broker} · {b['street']} · {b['city']}, {b['state']} {b['zip']}", p.fs)
    elif family == "optout-grid":
        # A ruled grid, label | value cells, two pairs to a row where they fit, long values on a row of
        # their own; label cells shaded on some forms.
        p.line(rng.choice([f"{broker} Data Removal Form", f"Do Not Sell Request — {broker}",
                           f"{broker.upper()} CONSUMER REQUEST"]), p.fh)
        p.skip(0.4)
        p.line(rng.choice(["Section A — Requester", "1. Your information", "Requester"]), p.fb)
        pairs = [(L("full_name"), name), (L("date_of_birth"), dobd), (L("street_address"), a["street"]),
                 (L("city"), a["city"]), ("State", state_val), (L("zip"), a["zip"]), (L("phone"), ph),
                 (L("date"), reqd), (L("request_id"), rid)]
        rows, i = [], 0
        while i < len(pairs):
            val = pairs[i][1]
            if len(val) > 22 or i + 1 == len(pairs) or rng.random() < 0.25:
                rows.append([pairs[i]])
                i += 1
            else:
                rows.append([pairs[i], pairs[i + 1]])
                i += 2
        rows.insert(rng.randint(1, len(rows)), [(L("email"), em)])
        rows.append([(L("listing_url"), url)])
        p.grid(rows, label_frac=rng.uniform(0.16, 0.22), shade=rng.random() < 0.5)
        p.skip(0.6)
        p.line(rng.choice(["Section B — Request", "2. What would you like us to do?", "Request type"]), p.fb)
        options(rng.choice(["check", "filled", "box"]))
    elif family == "optout-row-pairs":
        # Pairs packed several to a line, with a colon, a dash or only a bold label between label and
        # value; the request options side by side on one or two lines.
        p.line(rng.choice([f"{broker}: Opt-Out", f"PRIVACY REQUEST ({broker})", f"{broker} — Suppression Request"]), p.fh)
        p.skip(0.4)
        sep = rng.choice([": ", ": ", " - ", "  "])
        p.pairs([(L("full_name"), name), (L("date_of_birth"), dobd)], sep=sep)
        p.pairs([(L("street_address"), a["street"])], sep=sep)
        if rng.random() < 0.5:
            p.pairs([(L("city"), a["city"]), ("State", state_val), (L("zip"), a["zip"]), (L("phone"), ph)], sep=sep, cols=4)
            p.pairs([(L("date"), reqd), (L("request_id"), rid)], sep=sep)
        else:
            p.pairs([(L("city"), a["city"]), ("State", state_val), (L("zip"), a["zip"])], sep=sep, cols=4)
            p.pairs([(L("phone"), ph), (L("date"), reqd), (L("request_id"), rid)], sep=sep, cols=3)
        p.pairs([(L("email"), em)], sep=sep)
        p.pairs([(L("listing_url"), url)], sep=sep)
        p.skip(0.4)
        p.line(rng.choice(["Request:", "Action requested:", "I ask you to:"]))
        short = {"delete": ["Delete", "Deletion"], "do_not_sell": ["Do Not Sell", "Do not sell/share"],
                 "opt_out_marketing": ["Marketing opt-out", "No marketing"], "access": ["Access", "Copy of my data"]}
        items = [(rng.choice(short[k]), k in ticked) for k, _ in OPTIONS]
        style = rng.choice(["brackets", "check"])
        if rng.random() < 0.5:
            p.option_row(items, style)
        else:
            p.option_row(items[:2], style)
            p.option_row(items[2:], style)
    if rng.random() < 0.3:
        p.stamp(rng, rng.choice(["RECEIVED", "PROCESSED"]))
    return p, truth


def render_id(rng, split, family):
    # a card at 600 DPI (85.6 × 54 mm), or a passport data page (125 × 88 mm)
    g, s, _ = person(rng)
    g = g or "Alex"
    dob, exp = date(rng, 1940, 2006), date(rng, 2026, 2036)
    sex = rng.choice(["F", "M", "X"]) if rng.random() < 0.1 else rng.choice(["F", "M"])
    nat = rng.choice(["USA", "CAN", "GBR", "FRA", "DEU", "NLD", "ESP", "IRL", "IND", "NGA", "KEN", "JPN"])
    number = rng.choice([f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(1000000, 9999999)}",
                         f"{rng.randint(100000000, 999999999)}", f"{rng.choice(['X', 'C', 'L'])}{rng.randint(10, 99)}{rng.choice('ABCDEFG')}{rng.randint(10000, 99999)}"])
    passport = family == "id-passport-page"
    w_in, h_in = (125 / 25.4, 88 / 25.4) if passport else (85.6 / 25.4, 54 / 25.4)
    p = Page(rng, split, w_in, h_in, dpi=600)
    reg, bold = rng.choice(FONTS[split])
    sz = int(rng.uniform(7.5, 9) * 600 / 72)
    p.f = ImageFont.truetype(os.path.join(FONT_DIR, reg), sz)
    p.fb = ImageFont.truetype(os.path.join(FONT_DIR, bold), sz)
    p.fs = ImageFont.truetype(os.path.join(FONT_DIR, reg), int(sz * 0.7))
    p.fh = ImageFont.truetype(os.path.join(FONT_DIR, bold), int(sz * 1.2))
    p.size = sz
    p.margin = int(0.12 * 600)
    p.x, p.y = p.margin, p.margin
    p.lead = 1.25
    hue = rng.choice([(225, 235, 245), (240, 230, 220), (230, 240, 230), (245, 240, 250)])
    p.d.rectangle([0, 0, p.img.width, p.img.height], fill=hue)
    ds = ["dmy-short", "us", "dmy"] if split == "dev" else ["dmy-short", "us", "dots"]
    dobd, expd = fmt_date(dob, rng, ds), fmt_date(exp, rng, ds)
    country = {"USA": "UNITED STATES OF AMERICA", "CAN": "CANADA", "GBR": "UNITED KINGDOM"}.get(nat, "REPUBLIC OF UTOPIA")
    truth = {"surname": ascii_fold(s).upper(), "given_names": ascii_fold(g).upper(), "date_of_birth": iso(dob), "sex": sex,
             "nationality": nat, "document_number": number, "expiry_date": iso(exp)}
    photo_w = int(p.img.width * 0.28)
    x0 = p.margin + photo_w + p.size
    p.d.rectangle([p.margin, int(p.img.height * 0.3), p.margin + photo_w, int(p.img.height * 0.88)], fill=(170, 160, 150))

    def fitted(val, x, right):
        # A card prints every value whole: one too long for its column is set smaller, as
        # issuers condense long names (drawn past the edge, the truth would hold characters the
        # page does not show).
        w = p.d.textlength(val, font=p.fb)
        return p.fb if x + w <= right else ImageFont.truetype(p.fb.path, int(p.fb.size * (right - x) / w))

    def stack(items, right):
        for labl, val in items:
            p.text(x0, p.y, labl, p.fs)
            p.y += int(p.fs.size * 1.15)
            p.text(x0, p.y, val, fitted(val, x0, right))
            p.y += int(p.size * 1.3)

    if family == "id-driver-license":
        p.text(p.margin, p.y, f"{rng.choice([pl[2] for pl in PLACES]).upper()}", p.fh)
        p.y += int(p.fh.size * 1.2)
        p.text(p.margin, p.y, "DRIVER LICENSE", p.fb)
        p.y = int(p.img.height * 0.3)
        for labl, val in [("DL", number), ("EXP", expd), ("LN", s.upper()), ("FN", g.upper()), ("DOB", dobd), ("SEX", sex)]:
            w = p.text(x0, p.y, labl + " ", p.fs, record=False)
            p.text(x0 + w, p.y - int(p.size * 0.1), val, p.fb, record=False)
            p.lines.append(f"{labl} {val}")
            p.y += int(p.size * 1.3)
        p.text(x0, p.y, f"NATIONALITY {nat}", p.fs)
    elif family == "id-driver-licence":
        # A US state's driving licence after the AAMVA card design: small field numbers ("4d",
        # "3", "4b") before short labels or none at all ("1" and "2" print the names), pairs
        # side by side on a line, an issue date and a document discriminator beside the fields
        # asked for, US dates, and no nationality printed.
        city, st, stname, county, z = rng.choice(PLACES)
        street = f"{rng.randint(1, 9899)} {rng.choice(STREETS)} {rng.choice(SUFFIXES)}"
        truth.pop("nationality")
        numbered = rng.random() < 0.7
        dobd, expd = fmt_date(dob, rng, ["us"]), fmt_date(exp, rng, ["us"])
        issd = fmt_date((exp[0] - rng.choice([4, 5, 8]), exp[1], exp[2]), rng, ["us"])
        p.text(p.margin, p.y, stname.upper(), p.fh)
        p.y += int(p.size * 1.4)
        p.text(p.margin, p.y, rng.choice(["DRIVER LICENSE", "DRIVER'S LICENSE", "OPERATOR LICENSE"]), p.fb)
        p.y = int(p.img.height * 0.28)

        def lbl(num, short):
            return f"{num} {short}".strip() if numbered else (short or {"1": "LN", "2": "FN", "8": "ADDRESS"}[num])
        dd = f"{rng.randint(10**9, 10**10 - 1)}{rng.choice(['', ' '])}{rng.randint(1000, 9999)}"
        rows = [[(lbl("4d", rng.choice(["DLN", "DL", "LIC#"])), number)],
                [(lbl("1", ""), s.upper())], [(lbl("2", ""), g.upper())],
                [(lbl("8", ""), street.upper())], [("", f"{city.upper()}, {st} {z}")],
                [(lbl("3", "DOB"), dobd), (lbl("4b", "EXP"), expd)],
                [(lbl("4a", "ISS"), issd), (lbl("15", "SEX"), sex)],
                [(lbl("16", "HGT"), f"{rng.randint(4, 6)}'-{rng.randint(0, 11):02d}\""), (lbl("18", "EYES"), rng.choice(["BRO", "BLU", "GRN", "HAZ"])),
                 (lbl("9", "CLASS"), rng.choice(["C", "D", "A"]))]]
        if rng.random() < 0.6:
            rows.append([(lbl("5", "DD"), dd)])
        if rng.random() < 0.5:
            # Dates first, as some states print them, the numbers and names below.
            rows = rows[5:7] + rows[:5] + rows[7:]
        right = p.img.width - p.margin // 2
        for row in rows:
            x, parts = x0, []
            for labl, val in row:
                if parts and x + p.d.textlength(f"{labl} {val}", font=p.fb) * 0.5 > right:
                    # A pair that would not fit even set at half size goes on a line of its
                    # own, as a card with a long value prints it (set smaller still, it was
                    # unreadable; past the edge, the font size came out 0).
                    p.lines.append(" ".join(parts))
                    x, parts = x0, []
                    p.y += int(p.size * 1.25)
                if labl:
                    x += p.text(x, p.y + int(p.size * 0.15), labl + " ", p.fs, record=False)
                    if int(p.fb.size * (right - x) / p.d.textlength(val, font=p.fb)) < 1:
                        # A label that leaves its value no room (a long label first on its
                        # line, at a large size): the value goes on the next line, as printed
                        # under its label (set in what was left, its size came out 0).
                        p.lines.append(" ".join(parts + [labl]))
                        x, parts, labl = x0, [], ""
                        p.y += int(p.size * 1.25)
                x += p.text(x, p.y, val, fitted(val, x, right), record=False) + p.size
                parts.append(f"{labl} {val}".strip())
            p.lines.append(" ".join(parts))
            p.y += int(p.size * 1.25)
    elif family == "id-residence-permit":
        # Pairs on one line, "Label: value" (often with no space after the colon, as cards
        # print them tight), the label's wording varying from card to card.
        p.text(p.margin, p.y, country, p.fb)
        p.y += int(p.size * 1.3)
        p.text(p.margin, p.y, "RESIDENCE PERMIT", p.fh)
        p.y = int(p.img.height * 0.3)
        name = {"surname": rng.choice(["Family name", "Surname", "Last name"]),
                "given": rng.choice(["Given names", "Forenames", "First names"]),
                "dob": rng.choice(["Born", "Date of birth", "DOB"]), "sex": rng.choice(["Gender", "Sex"]),
                "nat": rng.choice(["Citizenship", "Nationality"]), "num": rng.choice(["Permit No.", "Card No.", "Document No."]),
                "exp": rng.choice(["Valid until", "Expires", "Expiry date"])}
        tight = rng.random() < 0.5
        rows = [[(name["surname"], s.upper())], [(name["given"], g.upper())], [(name["dob"], dobd), (name["sex"], sex)],
                [(name["nat"], nat)], [(name["num"], number)], [(name["exp"], expd)]]
        right = p.img.width - p.margin // 2
        for row in rows:
            x, parts = x0, []
            for labl, val in row:
                lead = labl + (":" if tight else ": ")
                if parts and p.d.textlength(val, font=p.fb) > 2 * (right - x - p.d.textlength(lead, font=p.fs)):
                    # A second pair with no room left (a long date beside the sex) starts a line of
                    # its own rather than printed at under half size (or at none).
                    p.lines.append(" ".join(parts))
                    p.y += int(p.size * 1.3)
                    x, parts = x0, []
                x += p.text(x, p.y, lead, p.fs, record=False)
                x += p.text(x, p.y - int(p.size * 0.1), val, fitted(val, x, right), record=False) + p.size
                parts.append(f"{lead}{val}")
            p.lines.append(" ".join(parts))
            p.y += int(p.size * 1.3)
    elif family == "id-card-inline":
        p.text(p.margin, p.y, f"{country}", p.fb)
        p.y += int(p.size * 1.3)
        p.text(p.margin, p.y, "IDENTITY CARD", p.fh)
        p.y = int(p.img.height * 0.3)
        for row in [[("Surname", s.upper())], [("Given names", g.upper())], [("Sex", sex), ("Nationality", nat)],
                    [("Date of birth", dobd)], [("Document no.", number)], [("Date of expiry", expd)]]:
            x, parts = x0, []
            for labl, val in row:
                x += p.text(x, p.y, labl + ": ", p.fs, record=False)
                x += p.text(x, p.y - int(p.size * 0.1), val, p.fb, record=False) + p.size
                parts.append(f"{labl}: {val}")
            p.lines.append(" ".join(parts))
            p.y += int(p.size * 1.25)
    else:
        bil = family == "id-passport-page"
        p.text(p.margin, p.y, country, p.fb)
        p.y += int(p.size * 1.3)
        p.text(p.margin, p.y, "PASSPORT" if passport else "IDENTITY CARD", p.fh)
        p.y = int(p.img.height * (0.25 if passport else 0.28))
        items = [("Surname" + (" / Nom" if bil else ""), s.upper()), ("Given names" + (" / Prénoms" if bil else ""), g.upper()),
                 ("Nationality" + (" / Nationalité" if bil else ""), nat), ("Date of birth" + (" / Date de naissance" if bil else ""), dobd),
                 ("Sex" + (" / Sexe" if bil else ""), sex), ("Document no." if not passport else "Passport No. / No. du passeport", number),
                 ("Date of expiry" + (" / Date d'expiration" if bil else ""), expd)]
        if not passport:
            col = items[:3], items[3:]
            y0 = p.y
            second = x0 + int((p.img.width - x0) * 0.5)
            stack(col[0], second - p.size // 2)
            p.y, x0 = y0, second
            stack(col[1], p.img.width - p.margin // 2)
        else:
            stack(items, p.img.width - p.margin // 2)
    return p, truth


def render_negative(rng, split):
    """A page of none of our kinds: a plain business letter without any of their words."""
    p = Page(rng, split)
    a = address(rng)
    p.line(f"{rng.choice(STREETS)} {rng.choice(['Bakery', 'Hardware', 'Garden Club', 'Book Club'])}", p.fh)
    p.line(f"{a['street']}, {a['city']}, {a['state']} {a['zip']}", p.fs)
    p.skip()
    p.para(f"Dear {full_name(rng)},")
    for _ in range(rng.randint(3, 5)):
        p.para(" ".join(rng.choice(["the", "meeting", "next", "week", "will", "bring", "bread", "and", "tea", "music", "our",
                                    "garden", "needs", "help", "with", "planting", "tulips", "on", "Saturday", "morning"])
                        for _ in range(rng.randint(25, 45))).capitalize() + ".")
    return p, {}


# ----------------------------------------------------------------------------------------------
# Captures (the MRZ corpus's, plus a page-sized phone photo)

def capture(doc, px, cap, rng):
    if cap != "phone":
        return mrz_capture(doc, px, None, cap, rng)
    portrait = doc.shape[0] >= doc.shape[1]
    ow, oh = (2000, 2600) if portrait else (1800, 1350)
    bg, bgkind = background_texture(ow, oh, rng)
    frac = rng.uniform(0.72, 0.9)
    target_w = ow * frac
    dh = doc.shape[0] * target_w / doc.shape[1]
    if dh > oh * 0.9:
        target_w *= oh * 0.9 / dh
    img, _ = warp_onto(doc, ow, oh, bg, target_w, 25, rng.uniform(-8, 8), (ow / 2, oh / 2), rng)
    p = dict(size=f"{ow}x{oh}", background=bgkind)
    if rng.random() < 0.5:
        L = rng.choice([3, 5])
        img = motion_blur(img, rng, L)
        p["motion_blur"] = L
    else:
        sg = rng.uniform(0.5, 1.3)
        img = cv2.GaussianBlur(img, (0, 0), sg)
        p["defocus"] = round(sg, 2)
    img = add_noise(img, rng, rng.uniform(2, 5))
    p["quality"] = rng.randint(30, 70)
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)), "jpg", p


def doc_rng(seed, split, index):
    h = hashlib.sha256(f"doc-corpus/{seed}/{split}/{index}".encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def plan(split, count, seed):
    """`count` documents per kind plus about 10% negatives; families and captures balanced."""
    rng = doc_rng(seed, split, "plan")
    items = []
    for kind in ("deed", "optout", "id"):
        fams = FAMILIES[split][kind]
        caps = CAPTURES[:]
        for i in range(count):
            if i % len(caps) == 0:
                rng.shuffle(caps)
            items.append(dict(kind=kind, family=fams[i % len(fams)], capture=caps[i % len(caps)]))
    for j in range(max(2, count // 10)):
        items.append(dict(kind="unknown", family="letter-plain", capture=CAPTURES[j % len(CAPTURES)]))
    rng.shuffle(items)
    later = doc_rng(seed, split, "later")
    for kind, fams in LATER_FAMILIES[split].items():
        for fam in fams:
            caps = CAPTURES[:]
            later.shuffle(caps)
            items += [dict(kind=kind, family=fam, capture=caps[i % len(caps)]) for i in range(max(1, count // 3))]
    return items


def render_one(split, count, seed, i):
    """Document `i` of a split as `generate` makes it: (image, extension, save params, name, truth)."""
    it = plan(split, count, seed)[i]
    rng = doc_rng(seed, split, i)
    np.random.seed(rng.randint(0, 2**31 - 1))
    render = {"deed": render_deed, "optout": render_optout, "id": render_id}.get(it["kind"])
    page, fields = render(rng, split, it["family"]) if render else render_negative(rng, split)
    img, ext, params = capture(np.asarray(page.img), page.dpi / 25.4, it["capture"], rng)
    name = f"{split}-{i:03d}-{it['family']}-{it['capture']}"
    truth = {"file": f"{name}.{ext}", "kind": it["kind"], "family": it["family"], "capture": it["capture"],
             "split": split, "font": page.font_name, "fields": fields, "lines": page.lines, "capture_params": params}
    return img, ext, params, name, truth


def save(img, ext, params, path):
    if ext == "jpg":
        img.save(path, quality=params.get("quality", 90))
    else:
        img.save(path, compress_level=6)


def generate(out_dir, split, count, seed, quiet=False, capture=None, seeds=None, family=None):
    """`seeds`: several seeds into one folder, each page's name prefixed with `s<seed>-`.
    `capture`, `family`: only the pages of that capture or family, as they are in the full corpus."""
    d = os.path.join(out_dir, split)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if f.endswith((".png", ".jpg", ".json")):
            os.remove(os.path.join(d, f))
    manifest, t0 = [], time.time()
    several = seeds is not None and len(seeds) > 1
    for seed, i in [(s_, i) for s_ in (seeds or [seed]) for i, it in enumerate(plan(split, count, s_))
                    if (capture is None or it["capture"] == capture) and (family is None or it["family"] in family.split(","))]:
        img, ext, params, name, truth = render_one(split, count, seed, i)
        if several:
            name = f"s{seed}-{name}"
            truth["file"] = f"{name}.{ext}"
        save(img, ext, params, os.path.join(d, f"{name}.{ext}"))
        with open(os.path.join(d, name + ".truth.json"), "w") as fh:
            json.dump(truth, fh, indent=1, ensure_ascii=False)
        manifest.append(truth)
        if not quiet and (i + 1) % 25 == 0:
            print(f"  {split}: {i + 1} documents, {time.time() - t0:.0f} s", file=sys.stderr)
    with open(os.path.join(d, "manifest.json"), "w") as fh:
        json.dump({"split": split, "count": count, "seed": seeds if several else (seeds or [seed])[0], "capture": capture,
                   "family": family, "documents": manifest}, fh, indent=1, ensure_ascii=False)
    return manifest


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("--split", choices=["dev", "test", "all"], default="all")
    ap.add_argument("--count", type=int, default=24, help="documents per kind per split (negatives: about 10%% more)")
    ap.add_argument("--seed", default="15", help="a seed, or several separated by commas (into one folder, names prefixed s<seed>-)")
    ap.add_argument("--capture", choices=CAPTURES, help="only the pages of this capture (as they are in the full corpus)")
    ap.add_argument("--family", help="only the pages of this layout family, or of several separated by commas (as they are in the full corpus)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--only", type=int, metavar="INDEX",
                    help="write only document INDEX of --split (dev or test) to OUT_DIR as INDEX's file name, with its truth")
    a = ap.parse_args()
    seeds = [int(x) for x in a.seed.split(",")]
    a.seed = seeds[0]
    if a.only is not None:
        img, ext, params, name, truth = render_one(a.split, a.count, a.seed, a.only)
        os.makedirs(a.out_dir, exist_ok=True)
        save(img, ext, params, os.path.join(a.out_dir, f"{name}.{ext}"))
        with open(os.path.join(a.out_dir, name + ".truth.json"), "w") as fh:
            json.dump(truth, fh, indent=1, ensure_ascii=False)
        return
    for split in (["dev", "test"] if a.split == "all" else [a.split]):
        t0 = time.time()
        m = generate(a.out_dir, split, a.count, a.seed, a.quiet, capture=a.capture, seeds=seeds, family=a.family)
        if not a.quiet:
            print(f"{split}: {len(m)} pages in {time.time() - t0:.0f} s -> {os.path.join(a.out_dir, split)}", file=sys.stderr)


if __name__ == "__main__":
    main()
