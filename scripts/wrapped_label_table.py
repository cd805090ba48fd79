"""Writes Tests/Fixtures/ocr-fallback/wrapped-label-cells.png: an opt-out form's table whose label
cells wrap onto two lines beside values on one ("Requestor" over "Name"), as web forms print
them. Tesseract's page layout reads such a cell as one tall smudge ("Neduestor" at confidence 0
in a box two lines high); see `TallWordsTests`. Deterministic (no randomness, no timestamps);
DejaVu Serif from fonts-dejavu-core.

    python3 scripts/wrapped_label_table.py
"""
import os

from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "ocr-fallback", "wrapped-label-cells.png")
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"

ROWS = [(("Requestor", "Name"), "Ana Maria Lima", ("Birthday",), "05/16/1948"),
        (("Residence",), "9087 Riverside Way", ("City",), "Reno"),
        (("Email address", "on file"), "ana.lima@mail.example.org", ("Daytime Phone",), "400-975-0264"),
        (("Tracking", "number"), "CASE-996321", ("Date submitted",), "04/17/2025"),
        (("Link to your", "profile"), "https://www.spokeo.com/listing/ana-lima/99760", None, None)]


def main():
    image = Image.new("L", (2550, 1500), 255)
    draw = ImageDraw.Draw(image)
    small, value, title = ImageFont.truetype(SERIF, 38), ImageFont.truetype(SERIF, 46), ImageFont.truetype(BOLD, 60)
    draw.text((150, 120), "CONSUMER PRIVACY REQUEST FORM", font=title, fill=0)
    x0, x1, x2, x3, x4 = 150, 520, 1420, 1800, 2400
    y = 260
    for label, text, label2, text2 in ROWS:
        h = 140 if len(label) == 2 else 95
        draw.rectangle((x0, y, x4, y + h), outline=0, width=3)
        for x in ([x1, x2, x3] if label2 else [x1]):
            draw.line((x, y, x, y + h), fill=0, width=3)
        for cell, lines in ((x0, label), (x2, label2 or ())):
            top = y + (h - len(lines) * 48) // 2
            for i, line in enumerate(lines):
                draw.text((cell + 20, top + 48 * i), line, font=small, fill=0)
        draw.text((x1 + 20, y + (h - 50) // 2), text, font=value, fill=0)
        if text2:
            draw.text((x3 + 20, y + (h - 50) // 2), text2, font=value, fill=0)
        y += h
    image.save(OUT, dpi=(300, 300), optimize=True)


if __name__ == "__main__":
    main()
