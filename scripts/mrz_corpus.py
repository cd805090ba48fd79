#!/usr/bin/env python3
"""Generates the MRZ benchmark corpus: passport pages, ID cards, visas and MRZ-only crops with
correct ICAO 9303 machine-readable zones (about 10% with a deliberately wrong printed check digit),
plus pages without an MRZ, each through one simulated capture (flatbed, skewed scan, fax, noisy
photocopy, shadow, glare, phone photo, large photo, small image).

    scripts/make-mrz-corpus out/mrz-corpus [--split dev|test|all] [--count N] [--seed S]

Writes OUT/<split>/NAME.png|.jpg and NAME.truth.json:
    {"format": "TD1|TD2|TD3|MRVA|MRVB|none", "lines": [...], "check_digits_valid": bool,
     "failed_checks": [...], "family": ..., "capture": ..., "split": ..., "capture_params": {...}}
and OUT/<split>/manifest.json (every truth, in order). Deterministic for a given seed and count.

The dev and test splits share no layout family, VIZ font, label language, OCR-B cut or seed:
tune on dev, report on test. The corpus is generated at benchmark time and never committed.
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys
import time
import unicodedata

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

cv2.setNumThreads(1)

# ----------------------------------------------------------------------------------------------
# ICAO 9303 content

# ISO 3166-1 alpha-3 codes as used by ICAO, plus ICAO's own codes (D, GBD..GBS, UN*, XX*, EUE,
# X** organisations, RKS) and UTO, the specimen state "Utopia".
COUNTRIES = """AFG ALB DZA AND AGO ATG ARG ARM AUS AUT AZE BHS BHR BGD BRB BLR BEL BLZ BEN BTN BOL BIH
BWA BRA BRN BGR BFA BDI KHM CMR CAN CPV CAF TCD CHL CHN COL COM COG COD CRI CIV HRV CUB CYP CZE DNK DJI
DMA DOM ECU EGY SLV GNQ ERI EST SWZ ETH FJI FIN FRA GAB GMB GEO GHA GRC GRD GTM GIN GNB GUY HTI HND HUN
ISL IND IDN IRN IRQ IRL ISR ITA JAM JPN JOR KAZ KEN KIR PRK KOR KWT KGZ LAO LVA LBN LSO LBR LBY LIE LTU
LUX MDG MWI MYS MDV MLI MLT MHL MRT MUS MEX FSM MDA MCO MNG MNE MAR MOZ MMR NAM NRU NPL NLD NZL NIC NER
NGA MKD NOR OMN PAK PLW PAN PNG PRY PER PHL POL PRT QAT ROU RUS RWA KNA LCA VCT WSM SMR STP SAU SEN SRB
SYC SLE SGP SVK SVN SLB SOM ZAF SSD ESP LKA SDN SUR SWE CHE SYR TJK TZA THA TLS TGO TON TTO TUN TUR TKM
TUV UGA UKR ARE GBR USA URY UZB VUT VAT VEN VNM YEM ZMB ZWE HKG MAC TWN PSE BMU CYM GIB
RKS D GBD GBN GBO GBP GBS UNO UNA UNK XXA XXB XXC XXX EUE XOM XPO XCC XES XIM XDC UTO""".split()

STATE_NAMES = {"UTO": "UTOPIA", "D": "DEUTSCHLAND", "GBR": "UNITED KINGDOM", "FRA": "RÉPUBLIQUE FRANÇAISE",
               "NLD": "KONINKRIJK DER NEDERLANDEN", "ESP": "REINO DE ESPAÑA", "ITA": "REPUBBLICA ITALIANA",
               "PRT": "REPÚBLICA PORTUGUESA", "SWE": "KONUNGARIKET SVERIGE", "POL": "RZECZPOSPOLITA POLSKA",
               "IRL": "ÉIRE · IRELAND", "CAN": "CANADA", "USA": "UNITED STATES OF AMERICA", "EUE": "EUROPEAN UNION",
               "UNO": "UNITED NATIONS", "XXA": "STATELESS"}

# (surnames, given names) by culture, in their usual Latin spelling (diacritics, hyphens,
# apostrophes, particles) so that the MRZ transliteration is exercised.
NAMES = {
    "german": (["Müller", "Schäfer", "Weiß", "Groß-Öztürk", "von Bülow", "Mustermann", "Köhler", "Zimmermann-Strauß", "Bär"],
               ["Jürgen", "Anna-Lena", "Hans Peter", "Gisela", "Björn", "Ute", "Karl-Heinz Friedrich"]),
    "french": (["Dupuis", "de La Fontaine", "Lefèvre", "Le Goff", "D'Arcy", "Bénard-Lacroix", "du Pont", "Œuvray"],
               ["Jean-François", "Anne Marie", "Hélène", "Zoé", "Benoît", "Marie-Ève Océane", "Loïc"]),
    "dutch": (["van der Berg", "de Bruijn", "van den Heuvel-Bos", "Bakker", "IJzerman", "ter Horst", "van 't Hof"],
              ["Willeke Liselotte", "Sjoerd", "Geertruida", "Bram", "Ilse", "Joost Maarten"]),
    "spanish": (["García Márquez", "de la Cruz Núñez", "Ibáñez", "Sánchez-Olivares", "Muñoz del Río", "Peña"],
                ["José María", "Begoña", "Íñigo", "María de los Ángeles", "Sol", "Juan Carlos Alberto"]),
    "portuguese": (["dos Santos", "Gonçalves", "da Conceição Ribeiro", "Araújo", "Simões", "Brandão"],
                   ["João Pedro", "Inês", "Conceição", "Zé", "Maria Gabriela Sofia"]),
    "irish": (["O'Sullivan", "Mac Giolla Bhríde", "O'Brien-Ó Súilleabháin", "Ní Bhriain", "McCarthy"],
              ["Seán", "Siobhán", "Aoife", "Pádraig Liam", "Bríd"]),
    "nordic": (["Østergård", "Åström", "Sigurðardóttir", "Þórsson", "Lindqvist", "Hægeland", "Bø"],
               ["Sven", "Åsa", "Ævar Þór", "Signe", "Ørjan", "Liv", "Karl Johan Gustav"]),
    "slavic": (["Kowalska-Kwiatkowska", "Łukaszewicz", "Dvořák", "Šimůnková", "Ivanova", "Wójcik", "Żak"],
               ["Małgorzata", "Jiří", "Zdeněk", "Olga", "Bożena Anna", "Ян"]),
    "turkish": (["Öztürk", "Şahin", "Yılmaz", "Güneş", "Çelik", "Doğan"], ["İbrahim", "Ayşe Gül", "Çağrı", "Şule", "Oğuz"]),
    "arabic": (["Al-Hashimi", "Abd Al-Rahman", "El Amrani", "Ben Salah", "Bin Laden-Smith", "Abu Bakr Al Siddiq"],
               ["Mohammed", "Fatima Zahra", "Abdul Aziz", "Nour", "Omar", "Aisha Bint Khalid"]),
    "chinese": (["Li", "Wang", "Ng", "O", "Zhang", "Au-Yeung", "Xu"], ["Wei", "Xiaoming", "Li Na", "Yu", "Jia Hui"]),
    "vietnamese": (["Nguyen", "Tran", "Pham", "Vu"], ["Thi Minh Khai", "Van An", "Bao", "Anh"]),
    "korean_japanese": (["Kim", "Park", "Yamamoto", "Takahashi", "Oh", "Suzuki"], ["Min-jun", "Seo Yeon", "Haruto", "Yuki", "Sakura"]),
    "indian": (["Venkataraghavan", "Iyer", "Subramaniam", "Patel", "Chakraborty", "Raghunathan"],
               ["Lakshminarasimhan Srinivasa", "Priya", "Venkata Satya Sai Subrahmanyam", "Ravi", "Anandakrishnan"]),
    "thai": (["Suwannakittiwong", "Phanomyong", "Rattanakosin", "Bunnag"], ["Somchai", "Pimchanok", "Kittisak", "Ploy"]),
    "west_african": (["Adebayo", "Okonkwo-Eze", "Mensah", "Diallo", "Ouédraogo", "Nwachukwu"],
                     ["Oluwaseun", "Chiamaka", "Kwame", "Aminata", "Babajide Oluwatobiloba"]),
    "east_african": (["Tesfaye", "Wanjiru", "Kiplagat", "Haile Selassie"], ["Abebe", "Njeri", "Eliud", "Makeda"]),
    "hawaiian_pacific": (["Kahananui", "Ka'ahumanu", "Fa'alogo", "Tupou"], ["Keʻalohilani", "Malia", "Sione", "Lani"]),
    "greek": (["Papadopoulou", "Georgiou", "Konstantinopoulos-Vlachos"], ["Eleni", "Dimitrios", "Aikaterini", "Ioannis"]),
    "hungarian": (["Szőke", "Kovács", "Nagy-Tóth", "Erdős"], ["Zsófia", "Gyula", "Ödön", "Réka"]),
    "specimen": (["Mustermann", "Musterfrau", "Specimen", "Utopian", "Eriksson", "Traveler", "Bloggs"],
                 ["Erika", "Max", "Anna Maria", "Happy Person", "Joe", "Isolde"]),
    "mononym": (["Sukarno", "Teller", "Bono", "Suharto", "Ronaldinho", "Madonna"], [""]),
}

TRANSLIT = {"Ä": "AE", "Ö": "OE", "Ü": "UE", "Å": "AA", "Æ": "AE", "Ø": "OE", "ß": "SS", "Þ": "TH", "Ð": "D",
            "Œ": "OE", "Ł": "L", "İ": "I", "I": "I", "Ŀ": "L", "Ĳ": "IJ", "Ħ": "H", "Ŧ": "T", "ʻ": "", "Я": "YA", "Н": "N"}


def translit(name):
    """ICAO 9303 part 3 names: recommended transliterations, accents dropped, hyphens and spaces
    to filler, apostrophes and other punctuation omitted."""
    out = []
    for ch in name.upper():
        if ch in TRANSLIT:
            out.append(TRANSLIT[ch])
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        if base in ("-", " "):
            out.append("<")
        elif "A" <= base <= "Z":
            out.append(base)
        elif base == "ı".upper() or base == "I":
            out.append("I")
        # apostrophes, dots, commas: omitted
    s = "".join(out)
    while "<<" in s:
        s = s.replace("<<", "<")
    return s.strip("<")


def name_field(surname, given, length):
    primary, secondary = translit(surname), translit(given)
    s = primary + ("<<" + secondary if secondary else "")
    return (s[:length]).ljust(length, "<")


def char_value(c):
    if c == "<":
        return 0
    if c.isdigit():
        return int(c)
    return ord(c) - 55


def check_digit(s):
    return str(sum(char_value(c) * (7, 3, 1)[i % 3] for i, c in enumerate(s)) % 10)


def verify(fmt, lines):
    """Failed ICAO check digits of an MRZ (names of the checks), independent of how it was built."""
    bad = []

    def chk(name, data, digit, empty_ok=False):
        if empty_ok and set(data) == {"<"} and digit in "<0":
            return
        if digit != check_digit(data):
            bad.append(f"{name}: printed {digit}, computed {check_digit(data)}")

    if fmt == "TD1":
        l1, l2, l3 = lines
        if l1[14] == "<" and l1[15] != "<":      # long document number continued in the optional field
            ext = l1[15:30].split("<")[0]
            chk("document_number", l1[5:14] + ext[:-1], ext[-1])
        else:
            chk("document_number", l1[5:14], l1[14])
        chk("date_of_birth", l2[0:6], l2[6])
        chk("date_of_expiry", l2[8:14], l2[14])
        chk("composite", l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29], l2[29])
    elif fmt in ("TD2", "TD3", "MRVA", "MRVB"):
        l2 = lines[1]
        chk("document_number", l2[0:9], l2[9])
        chk("date_of_birth", l2[13:19], l2[19])
        chk("date_of_expiry", l2[21:27], l2[27])
        if fmt == "TD3":
            chk("personal_number", l2[28:42], l2[42], empty_ok=True)
            chk("composite", l2[0:10] + l2[13:20] + l2[21:43], l2[43])
        elif fmt == "TD2":
            chk("composite", l2[0:10] + l2[13:20] + l2[21:35], l2[35])
    return bad


CONFUSABLE = "O0I1S5B8Z2G6"
LETTERS_BIASED = "OOOIIISSSBBBZZGGACDEFHKLMNPRTUVWXY"
DIGITS_BIASED = "000011155882266934567"


def doc_number(rng, fmt):
    style = rng.choice(["LLD7", "LD8", "D9", "MIX9", "MIX9", "MIX8", "D8", "LLL6", "ZEROS"]
                       + (["LONG"] if fmt == "TD1" else []))
    L = lambda: rng.choice(LETTERS_BIASED)
    D = lambda: rng.choice(DIGITS_BIASED)
    M = lambda: rng.choice(CONFUSABLE) if rng.random() < 0.55 else rng.choice("ABCDEFGHJKLMNPRTUVWXY0123456789")
    if style == "LLD7":
        return L() + L() + "".join(D() for _ in range(7))
    if style == "LD8":
        return L() + "".join(D() for _ in range(8))
    if style == "D9":
        return "".join(D() for _ in range(9))
    if style == "MIX9":
        return "".join(M() for _ in range(9))
    if style == "MIX8":
        return "".join(M() for _ in range(8))
    if style == "D8":
        return "".join(D() for _ in range(8))
    if style == "LLL6":
        return L() + L() + L() + "".join(D() for _ in range(5))
    if style == "ZEROS":
        return L() + "0000" + "".join(D() for _ in range(rng.choice([3, 4])))
    return "".join(M() for _ in range(rng.choice([10, 11, 12])))       # LONG (TD1 only)


def yymmdd(y, m, d):
    return f"{y % 100:02d}{m:02d}{d:02d}"


def rand_date(rng, y0, y1):
    y = rng.randint(y0, y1)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28 if m == 2 else (30 if m in (4, 6, 9, 11) else 31))
    return y, m, d


def optional_text(rng, n):
    kind = rng.random()
    if kind < 0.45:
        return "<" * n
    if kind < 0.75:
        k = rng.randint(min(6, n), n)
        return "".join(rng.choice("0123456789") for _ in range(k)).ljust(n, "<")
    k = rng.randint(min(4, n), n)
    s = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + CONFUSABLE) for _ in range(k))
    if k > 4 and rng.random() < 0.4:
        i = rng.randint(1, k - 2)
        s = s[:i] + "<" + s[i + 1:]
    return s.ljust(n, "<")


def pick_state(rng):
    r = rng.random()
    if r < 0.08:
        return "UTO"
    if r < 0.13:
        return "D"
    if r < 0.17:
        return "GBR"
    return rng.choice(COUNTRIES)


def make_identity(rng, fmt):
    culture = rng.choice(list(NAMES))
    surnames, givens = NAMES[culture]
    surname = rng.choice(surnames)
    given = rng.choice(givens)
    if rng.random() < 0.15 and culture != "mononym":               # double given names / long names
        given = (given + " " + rng.choice(givens)).strip()
    issuer = pick_state(rng)
    nat = issuer if rng.random() < 0.8 else pick_state(rng)
    by, bm, bd = rand_date(rng, 1926, 2024)
    iy = max(by + 1, rng.randint(2012, 2026))
    iy = min(iy, 2026)
    im, idd = rng.randint(1, 12), rng.randint(1, 28)
    ey, em, ed = iy + rng.choice([5, 10, 10, 3, 1] if fmt in ("MRVA", "MRVB") else [5, 10, 10, 6]), im, idd
    if fmt in ("MRVA", "MRVB") and rng.random() < 0.6:
        ey, em = iy, min(12, im + rng.randint(1, 6))
    sex = rng.choices(["M", "F", "<"], [0.47, 0.47, 0.06])[0]
    return dict(culture=culture, surname=surname, given=given, issuer=issuer, nationality=nat,
                birth=(by, bm, bd), issue=(iy, im, idd), expiry=(ey, em, ed), sex=sex,
                number=doc_number(rng, fmt), place=rng.choice(PLACES))


PLACES = ["UTOPIA CITY", "BERLIN", "LYON", "'S-HERTOGENBOSCH", "SEVILLA", "PORTO", "CORK", "ÅRHUS", "KRAKÓW",
          "İZMİR", "CASABLANCA", "SHANGHAI", "HÀ NỘI", "BUSAN", "CHENNAI", "CHIANG MAI", "LAGOS", "ADDIS ABABA",
          "HILO", "THESSALONÍKI", "DEBRECEN", "SAN JOSÉ", "MONTRÉAL"]


def pad3(code):
    return code.ljust(3, "<")


def build_mrz(rng, fmt, ident):
    """Correct MRZ lines for the identity; the caller may corrupt one check digit afterwards."""
    iss, nat = pad3(ident["issuer"]), pad3(ident["nationality"])
    dob, exp, sex = yymmdd(*ident["birth"]), yymmdd(*ident["expiry"]), ident["sex"]
    num = ident["number"]
    checks = {}                                   # check name -> (line, index)
    if fmt == "TD3":
        code = rng.choice(["P<", "P<", "P<", "PC", "PD", "PO"])
        l1 = code + iss + name_field(ident["surname"], ident["given"], 39)
        docf = num[:9].ljust(9, "<")
        r = rng.random()
        if r < 0.5:
            pers, pcd = "<" * 14, rng.choice(["<", "<", "0"])
        else:
            pers = optional_text(rng, 14)
            if set(pers) == {"<"}:
                pers = "".join(rng.choice("0123456789") for _ in range(11)).ljust(14, "<")
            pcd = check_digit(pers)
        l2 = docf + check_digit(docf) + nat + dob + check_digit(dob) + sex + exp + check_digit(exp) + pers + pcd
        l2 += check_digit(l2[0:10] + l2[13:20] + l2[21:43])
        checks = {"document_number": (1, 9), "date_of_birth": (1, 19), "date_of_expiry": (1, 27), "composite": (1, 43)}
        if pcd != "<" and set(pers) != {"<"}:
            checks["personal_number"] = (1, 42)
        lines = [l1, l2]
    elif fmt == "TD2":
        code = rng.choice(["I<", "ID", "IR", "AC", "C<", "IP"])
        l1 = code + iss + name_field(ident["surname"], ident["given"], 31)
        docf = num[:9].ljust(9, "<")
        opt = optional_text(rng, 7)
        l2 = docf + check_digit(docf) + nat + dob + check_digit(dob) + sex + exp + check_digit(exp) + opt
        l2 += check_digit(l2[0:10] + l2[13:20] + l2[21:35])
        checks = {"document_number": (1, 9), "date_of_birth": (1, 19), "date_of_expiry": (1, 27), "composite": (1, 35)}
        lines = [l1, l2]
    elif fmt == "TD1":
        code = rng.choice(["I<", "ID", "IR", "AC", "C<", "IP", "ID"])
        if len(num) > 9:
            tail = num[9:] + check_digit(num)
            l1 = code + iss + num[:9] + "<" + (tail + "<" + optional_text(rng, 14 - len(tail)))[:15].ljust(15, "<")
            checks["document_number"] = (0, 15 + len(num) - 9)
        else:
            docf = num.ljust(9, "<")
            l1 = code + iss + docf + check_digit(docf) + optional_text(rng, 15)
            checks["document_number"] = (0, 14)
        l2 = dob + check_digit(dob) + sex + exp + check_digit(exp) + nat + optional_text(rng, 11)
        l2 += check_digit(l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29])
        l3 = name_field(ident["surname"], ident["given"], 30)
        checks.update({"date_of_birth": (1, 6), "date_of_expiry": (1, 14), "composite": (1, 29)})
        lines = [l1, l2, l3]
    else:                                          # MRVA / MRVB: no composite check digit
        n = 44 if fmt == "MRVA" else 36
        code = rng.choice(["V<", "V<", "VC", "VD"])
        l1 = code + iss + name_field(ident["surname"], ident["given"], n - 5)
        docf = num[:9].ljust(9, "<")
        l2 = docf + check_digit(docf) + nat + dob + check_digit(dob) + sex + exp + check_digit(exp) + optional_text(rng, n - 28)
        checks = {"document_number": (1, 9), "date_of_birth": (1, 19), "date_of_expiry": (1, 27)}
        lines = [l1, l2]
    want = {"TD1": 30, "TD2": 36, "TD3": 44, "MRVA": 44, "MRVB": 36}[fmt]
    assert all(len(l) == want for l in lines), (fmt, lines)
    assert not verify(fmt, lines), (fmt, lines, verify(fmt, lines))
    return lines, checks


def corrupt(rng, lines, checks):
    name = rng.choice(sorted(checks))
    li, i = checks[name]
    old = lines[li][i]
    new = rng.choice([d for d in "0123456789" if d != old])
    lines = list(lines)
    lines[li] = lines[li][:i] + new + lines[li][i + 1:]
    return lines, name


# ----------------------------------------------------------------------------------------------
# Fonts and labels: dev and test share none.

FD = "/usr/share/fonts/truetype/"
VIZ_FONTS = {
    "dev": [(FD + "dejavu/DejaVuSans.ttf", FD + "dejavu/DejaVuSans-Bold.ttf"),
            (FD + "dejavu/DejaVuSerif.ttf", FD + "dejavu/DejaVuSerif-Bold.ttf"),
            (FD + "dejavu/DejaVuSansCondensed.ttf", FD + "dejavu/DejaVuSansCondensed-Bold.ttf"),
            (FD + "liberation2/LiberationSans-Regular.ttf", FD + "liberation2/LiberationSans-Bold.ttf"),
            (FD + "liberation2/LiberationSerif-Regular.ttf", FD + "liberation2/LiberationSerif-Bold.ttf")],
    "test": [(FD + "freefont/FreeSans.ttf", FD + "freefont/FreeSansBold.ttf"),
             (FD + "freefont/FreeSerif.ttf", FD + "freefont/FreeSerifBold.ttf"),
             (FD + "crosextra/Carlito-Regular.ttf", FD + "crosextra/Carlito-Bold.ttf"),
             (FD + "crosextra/Caladea-Regular.ttf", FD + "crosextra/Caladea-Bold.ttf"),
             (FD + "open-sans/OpenSans-Regular.ttf", FD + "open-sans/OpenSans-CondBold.ttf")],
}
MONO_FONTS = {"dev": FD + "dejavu/DejaVuSansMono.ttf", "test": FD + "freefont/FreeMono.ttf"}
# Two cuts of OCR-B: the engine's templates come from OCRBS (sharp), so test uses the regular cut.
OCRB = {"dev": "/usr/share/fonts/opentype/ocr-b/OCRBS.otf", "test": "/usr/share/fonts/opentype/ocr-b/OCRB.otf"}

LABEL_KEYS = ["title_p", "title_id", "title_v", "surname", "given", "nat", "dob", "sex", "pob", "doi", "doe", "auth",
              "docno", "type", "code", "sig", "entries", "remarks"]
LABELS = {
    "en": ["PASSPORT", "IDENTITY CARD", "VISA", "Surname", "Given names", "Nationality", "Date of birth", "Sex",
           "Place of birth", "Date of issue", "Date of expiry", "Authority", "Passport No.", "Type", "Code",
           "Holder's signature", "Entries", "Remarks"],
    "fr": ["PASSEPORT", "CARTE D'IDENTITÉ", "VISA", "Nom", "Prénoms", "Nationalité", "Date de naissance", "Sexe",
           "Lieu de naissance", "Date de délivrance", "Date d'expiration", "Autorité", "N° du passeport", "Type", "Code",
           "Signature du titulaire", "Entrées", "Remarques"],
    "de": ["REISEPASS", "PERSONALAUSWEIS", "VISUM", "Name", "Vornamen", "Staatsangehörigkeit", "Geburtsdatum",
           "Geschlecht", "Geburtsort", "Ausstellungsdatum", "Gültig bis", "Behörde", "Pass-Nr.", "Typ", "Code",
           "Unterschrift", "Einreisen", "Anmerkungen"],
    "es": ["PASAPORTE", "DOCUMENTO NACIONAL DE IDENTIDAD", "VISADO", "Apellidos", "Nombre", "Nacionalidad",
           "Fecha de nacimiento", "Sexo", "Lugar de nacimiento", "Fecha de expedición", "Fecha de caducidad",
           "Autoridad", "N.º de pasaporte", "Tipo", "Código", "Firma del titular", "Entradas", "Observaciones"],
    "nl": ["PASPOORT", "IDENTITEITSKAART", "VISUM", "Naam", "Voornamen", "Nationaliteit", "Geboortedatum",
           "Geslacht", "Geboorteplaats", "Datum van afgifte", "Geldig tot", "Autoriteit", "Paspoortnummer", "Soort",
           "Code", "Handtekening houder", "Binnenkomsten", "Opmerkingen"],
    "it": ["PASSAPORTO", "CARTA D'IDENTITÀ", "VISTO", "Cognome", "Nome", "Cittadinanza", "Data di nascita", "Sesso",
           "Luogo di nascita", "Data di rilascio", "Data di scadenza", "Autorità", "N. passaporto", "Tipo", "Codice",
           "Firma del titolare", "Ingressi", "Annotazioni"],
    "pt": ["PASSAPORTE", "BILHETE DE IDENTIDADE", "VISTO", "Apelido", "Nome próprio", "Nacionalidade",
           "Data de nascimento", "Sexo", "Local de nascimento", "Data de emissão", "Válido até", "Autoridade",
           "N.º do passaporte", "Tipo", "Código", "Assinatura do titular", "Entradas", "Observações"],
    "sv": ["PASS", "IDENTITETSKORT", "VISUM", "Efternamn", "Förnamn", "Nationalitet", "Födelsedatum", "Kön",
           "Födelseort", "Utfärdandedatum", "Giltig till", "Myndighet", "Passnummer", "Typ", "Kod",
           "Innehavarens namnteckning", "Inresor", "Anmärkningar"],
}
LANGS = {"dev": [("en", "fr"), ("de", "en"), ("es",), ("fr",), ("en",)],
         "test": [("nl",), ("it", "pt"), ("sv",), ("pt",), ("nl", "sv")]}
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

# Layout families: (name, document kind, style). Half in dev, half in test.
FAMILIES = {
    "dev": [("passport-guilloche-photoleft", "td3", dict(photo="left", bg="guilloche", hue=(205, 232, 210), header="plain", mrz_bg="clear")),
            ("passport-rosette-photoleft", "td3", dict(photo="left", bg="rosette", hue=(240, 218, 224), header="plain", mrz_bg="pattern")),
            ("idcard-td1-back-waves", "td1", dict(bg="waves", hue=(212, 226, 246))),
            ("idcard-td2-photoleft", "td2", dict(photo="left", bg="guilloche", hue=(236, 230, 200), header="plain", mrz_bg="clear")),
            ("visa-sticker-photoleft", "visa", dict(photo="left", bg="rosette", hue=(222, 238, 236), header="plain", mrz_bg="clear")),
            ("mrz-crop-white", "crop", dict(bg="white"))],
    "test": [("passport-guilloche-photoright", "td3", dict(photo="right", bg="guilloche", hue=(226, 214, 240), header="plain", mrz_bg="pattern")),
             ("passport-card-band-photoleft", "td3", dict(photo="left", bg="gradient", hue=(214, 236, 244), header="band", mrz_bg="clear")),
             ("idcard-td1-back-dots", "td1", dict(bg="dots", hue=(246, 240, 206))),
             ("idcard-td2-photoright", "td2", dict(photo="right", bg="gradient", hue=(240, 226, 210), header="band", mrz_bg="pattern")),
             ("visa-band-photoright", "visa", dict(photo="right", bg="guilloche", hue=(244, 236, 214), header="band", mrz_bg="clear")),
             ("mrz-crop-tinted", "crop", dict(bg="tinted"))],
}
FAMILY_WEIGHTS = {"td3": 0.22, "td1": 0.17, "td2": 0.13, "visa": 0.12, "crop": 0.14}
NEGATIVES = {"dev": ["neg-letter", "neg-code-listing", "neg-payment-slip", "neg-ocrb-card"], "test": ["neg-receipt", "neg-form-mrzish"]}
CAPTURES = ["flatbed", "flatbed-skew", "fax", "photocopy", "shadow", "glare", "phone", "photo-large", "small"]

PXMM = 12.0       # document raster: 12 px/mm (about 305 dpi)

_font_cache = {}


def font(path, size):
    key = (path, int(size))
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(path, max(4, int(size)))
    return _font_cache[key]


# ----------------------------------------------------------------------------------------------
# Page backgrounds (float32 RGB 0..255, H x W x 3)

def bg_base(w, h, hue, rng):
    base = np.empty((h, w, 3), np.float32)
    base[:] = np.array(hue, np.float32)
    return base


def bg_pattern(kind, w, h, hue, rng, strength=1.0):
    img = bg_base(w, h, hue, rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ink = np.array([max(0, c - 70) for c in hue], np.float32)
    if kind == "guilloche":
        m = np.zeros((h, w), np.float32)
        for _ in range(2):
            f = rng.uniform(0.08, 0.16)
            a, p = rng.uniform(8, 30), rng.uniform(60, 220)
            b, q = rng.uniform(4, 20), rng.uniform(80, 300)
            ph = f * xx + a * np.sin(2 * np.pi * yy / p) + b * np.sin(2 * np.pi * (xx + yy) / q)
            m = np.maximum(m, np.exp(-(np.sin(ph) ** 2) / 0.02))
        m *= 0.35 * strength
    elif kind == "rosette":
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.6) * h
        r = np.hypot(xx - cx, yy - cy)
        th = np.arctan2(yy - cy, xx - cx)
        k = rng.randint(8, 24)
        ph = r / rng.uniform(5, 9) + rng.uniform(2, 5) * np.sin(k * th)
        m = np.exp(-(np.sin(ph) ** 2) / 0.03) * 0.3 * strength * np.clip(1.2 - r / (0.7 * max(w, h)), 0, 1)
    elif kind == "waves":
        ph = yy / rng.uniform(6, 10) + rng.uniform(5, 15) * np.sin(xx / rng.uniform(40, 90))
        m = np.exp(-(np.sin(ph) ** 2) / 0.04) * 0.25 * strength
    elif kind == "dots":
        m = np.zeros((h, w), np.float32)
        n = int(w * h / 900)
        xs, ys = (np.array([rng.random() for _ in range(n)]) * w).astype(int), (np.array([rng.random() for _ in range(n)]) * h).astype(int)
        m8 = np.zeros((h, w), np.uint8)
        for x, y in zip(xs, ys):
            cv2.circle(m8, (int(x), int(y)), rng.randint(2, 5), 255, -1)
        m = cv2.GaussianBlur(m8, (0, 0), 1.0).astype(np.float32) / 255 * 0.35 * strength
        ink = np.array([235, 200, 60], np.float32)
    elif kind == "gradient":
        t = (xx / w * 0.6 + yy / h * 0.4)
        other = np.array([min(255, c + 18) for c in hue[::-1]], np.float32)
        return img * (1 - t[..., None]) + other * t[..., None]
    else:
        return img
    return img * (1 - m[..., None]) + ink * m[..., None]


def draw_photo(img, box, rng):
    """A portrait placeholder: plain background, head and shoulders (no real face), clipped to the box."""
    x0, y0, x1, y1 = [int(v) for v in box]
    w, h = x1 - x0, y1 - y0
    if w < 4 or h < 4:
        return
    ph = Image.new("RGB", (w, h), tuple(rng.randint(190, 235) for _ in range(3)))
    d = ImageDraw.Draw(ph)
    skin = rng.choice([(224, 190, 160), (190, 140, 100), (120, 85, 60), (235, 205, 180)])
    cloth = tuple(rng.randint(20, 120) for _ in range(3))
    d.ellipse([0.05 * w, 0.68 * h, 0.95 * w, 1.5 * h], fill=cloth)
    d.ellipse([0.28 * w, 0.15 * h, 0.72 * w, 0.68 * h], fill=skin)
    hair = tuple(rng.randint(10, 90) for _ in range(3))
    d.chord([0.26 * w, 0.1 * h, 0.74 * w, 0.5 * h], 180, 360, fill=hair)
    img.paste(ph, (x0, y0))


def fmt_date(ymd, style, lang):
    y, m, d = ymd
    if style == 0:
        return f"{d:02d} {MONTHS[m - 1]} {y}"
    if style == 1:
        return f"{d:02d}.{m:02d}.{y}"
    return f"{d:02d} {m:02d} {y}"


# ----------------------------------------------------------------------------------------------
# The MRZ band: OCR-B characters drawn one by one (uneven pitch, height jitter, ink weight).

def render_mrz(ink_img, lines, x0, y_base0, line_pitch, char_h, pitch, ocrb, rng):
    d = ImageDraw.Draw(ink_img)
    size0 = char_h / 0.73                     # OCR-B cap height is 0.73 of the font size
    for li, line in enumerate(lines):
        x = x0 + rng.uniform(-0.3, 0.3) * pitch
        yb = y_base0 + li * line_pitch
        for ch in line:
            size = size0 * (1 + rng.uniform(-0.03, 0.03))
            dy = rng.uniform(-0.03, 0.03) * char_h
            d.text((x, yb + dy), ch, fill=255, font=font(ocrb, size), anchor="ls")
            x += pitch * (1 + rng.uniform(-0.02, 0.02))


def apply_ink(rgb, ink_l, colour, rng, blur=None, weight=None):
    ink = np.asarray(ink_l, np.float32) / 255.0
    weight = rng.choice([-1, 0, 0, 0, 1, 1, 2]) if weight is None else weight
    if weight > 0:
        ink = cv2.dilate(ink, np.ones((weight + 1, weight + 1), np.uint8))
    elif weight < 0:
        ink = cv2.erode(ink, np.ones((2, 2), np.uint8))
    blur = rng.choice([0, 0, 0.6, 1.0, 1.5]) if blur is None else blur
    if blur:
        ink = cv2.GaussianBlur(ink, (0, 0), blur)
    a = ink[..., None] * rng.uniform(0.88, 1.0)
    return rgb * (1 - a) + np.array(colour, np.float32) * a


# ----------------------------------------------------------------------------------------------
# Documents

DOC_MM = {"td3": (125, 88), "td1": (85.6, 54), "td2": (105, 74), "MRVA": (120, 80), "MRVB": (105, 74)}


def mrz_geometry(fmt, doc_w_mm, rng):
    n = {"TD1": 30, "TD2": 36, "TD3": 44, "MRVA": 44, "MRVB": 36}[fmt]
    pitch = 2.54 * rng.uniform(0.96, 1.02)
    char_h = rng.uniform(2.0, 2.5)
    line_pitch = rng.uniform(3.8, 4.8)
    x0 = max(1.5, (doc_w_mm - n * pitch) / 2 + rng.uniform(-1.0, 1.0))
    return n, pitch, char_h, line_pitch, x0


def render_document(rng, split, fam_kind, style, fmt, ident, lines):
    """The document (no capture effects) as float RGB, its px/mm and the MRZ box."""
    fonts = rng.choice(VIZ_FONTS[split])
    langs = rng.choice(LANGS[split])
    L = [dict(zip(LABEL_KEYS, LABELS[l])) for l in langs]
    lab = lambda k: " / ".join(x[k] for x in L)
    ocrb = OCRB[split]
    dstyle = rng.randint(0, 2)
    if fam_kind == "crop":
        n, pitch, char_h, line_pitch, _ = mrz_geometry(fmt, 0, rng)
        mx, my = rng.uniform(2, 8), rng.uniform(2, 7)
        w_mm, h_mm = n * pitch + 2 * mx, (len(lines) - 1) * line_pitch + char_h + 2 * my
        x0 = mx
    else:
        key = fam_kind if fam_kind != "visa" else fmt
        w_mm, h_mm = DOC_MM[key]
        n, pitch, char_h, line_pitch, x0 = mrz_geometry(fmt, w_mm, rng)
    W, H = int(round(w_mm * PXMM)), int(round(h_mm * PXMM))
    bg = style.get("bg", "white")
    if bg == "white":
        rgb = bg_base(W, H, (rng.randint(244, 255),) * 3, rng)
    elif bg == "tinted":
        hue = tuple(rng.randint(215, 245) for _ in range(3))
        rgb = bg_pattern("guilloche", W, H, hue, rng, strength=rng.uniform(0.4, 1.0))
    else:
        rgb = bg_pattern(bg, W, H, style["hue"], rng)
    mm = lambda v: int(round(v * PXMM))
    img = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    mrz_h = (len(lines) - 1) * line_pitch + char_h
    bottom = rng.uniform(3.5, 6.0) if fam_kind != "crop" else (h_mm - mrz_h) / 2
    y_first_base = h_mm - bottom - (len(lines) - 1) * line_pitch
    mrz_top = y_first_base - char_h
    # clear band behind the MRZ (ICAO's clear zone) on most designs
    if fam_kind != "crop" and style.get("mrz_bg") == "clear":
        band = np.asarray(img).astype(np.float32)
        y = mm(mrz_top - 2.0)
        band[y:] = band[y:] * 0.25 + np.array([rng.randint(238, 252)] * 3, np.float32) * 0.75
        img = Image.fromarray(band.astype(np.uint8))
        d = ImageDraw.Draw(img)
    text_c = tuple(rng.randint(10, 50) for _ in range(3))
    label_c = tuple(int(c * 0.45) for c in style.get("hue", (120, 120, 160)))
    reg, bold = fonts
    if fam_kind in ("td3", "td2", "visa"):
        s = w_mm / 125.0
        title = {"td3": "title_p", "td2": "title_id", "visa": "title_v"}[fam_kind]
        state = STATE_NAMES.get(ident["issuer"], ident["issuer"])
        if style.get("header") == "band":
            band_c = tuple(rng.randint(20, 110) for _ in range(3))
            d.rectangle([0, 0, W, mm(11 * s)], fill=band_c)
            d.text((mm(4), mm(2 * s)), state, font=font(bold, mm(3.2 * s)), fill=(245, 245, 245))
            d.text((mm(4), mm(6.2 * s)), lab(title), font=font(reg, mm(2.8 * s)), fill=(235, 235, 235))
            top = 13 * s
        else:
            d.text((W // 2, mm(2.5 * s)), state, font=font(bold, mm(3.4 * s)), fill=text_c, anchor="mt")
            d.text((W // 2, mm(7 * s)), lab(title), font=font(reg, mm(3.0 * s)), fill=label_c, anchor="mt")
            top = 12 * s
        ph_w, ph_h = 30 * s, 38 * s
        avail = mrz_top - 2.5 - top
        if ph_h > avail:
            ph_h = avail
            ph_w = ph_h * 0.79
        if style.get("photo") == "left":
            px0, fx0 = 5 * s, 5 * s + ph_w + 5 * s
        else:
            px0, fx0 = w_mm - 5 * s - ph_w, 6 * s
        draw_photo(img, [mm(px0), mm(top), mm(px0 + ph_w), mm(top + ph_h)], rng)
        fx1 = (px0 - 4 * s) if style.get("photo") == "right" else w_mm - 4
        rows = [("type", lines[0][0:2].replace("<", ""), "code", ident["issuer"]),
                ("surname", ident["surname"].upper(), None, None),
                ("given", ident["given"].upper() or "—", None, None),
                ("nat", STATE_NAMES.get(ident["nationality"], ident["nationality"]), "sex", ident["sex"].replace("<", "X")),
                ("dob", fmt_date(ident["birth"], dstyle, langs[0]), "pob", ident["place"]),
                ("doi", fmt_date(ident["issue"], dstyle, langs[0]), "docno", ident["number"]),
                ("doe", fmt_date(ident["expiry"], dstyle, langs[0]), "auth", rng.choice(["MINISTRY", "POLICE", "CONSULATE", "PREFECTURE"]))]
        row_h = min(6.6 * s, (avail) / len(rows))
        lsz, vsz = mm(min(1.9 * s, row_h * 0.33)), mm(min(2.9 * s, row_h * 0.5))
        y = top
        colw = (fx1 - fx0) / 2
        for k1, v1, k2, v2 in rows:
            d.text((mm(fx0), mm(y)), lab(k1), font=font(reg, lsz), fill=label_c)
            d.text((mm(fx0), mm(y + row_h * 0.36)), str(v1), font=font(bold, vsz), fill=text_c)
            if k2:
                d.text((mm(fx0 + colw), mm(y)), lab(k2), font=font(reg, lsz), fill=label_c)
                d.text((mm(fx0 + colw), mm(y + row_h * 0.36)), str(v2), font=font(bold, vsz), fill=text_c)
            y += row_h
    elif fam_kind == "td1":
        s = 1.0
        y = 3.0
        rows = [("pob", ident["place"]), ("doi", fmt_date(ident["issue"], dstyle, langs[0])),
                ("auth", rng.choice(["BÜRGERAMT", "CITY HALL", "POLICE DEPT. 12", "MUNICIPALITY"])),
                ("remarks", rng.choice(["", "HEIGHT 172 CM", "EYES BLUE", "ADDRESS: 12 MAIN STREET"]))]
        for k, v in rows:
            d.text((mm(4), mm(y)), lab(k), font=font(reg, mm(1.6)), fill=label_c)
            d.text((mm(4), mm(y + 2.0)), v, font=font(bold, mm(2.3)), fill=text_c)
            y += 5.2
            if y > mrz_top - 6:
                break
        gx = w_mm - 22
        gh = min(20, mrz_top - 5)
        if gh > 8:
            ghost = Image.new("RGB", (mm(16), mm(gh)))
            draw_photo(ghost, [0, 0, mm(16), mm(gh)], rng)
            g = np.asarray(ghost.convert("L"), np.float32)
            region = np.asarray(img, np.float32)
            yy0, xx0 = mm(3), mm(gx)
            sub = region[yy0:yy0 + g.shape[0], xx0:xx0 + g.shape[1]]
            sub[:] = sub * 0.55 + g[..., None] * 0.45
            img = Image.fromarray(region.astype(np.uint8))
            d = ImageDraw.Draw(img)
    rgb = np.asarray(img, np.float32)
    ink = Image.new("L", (W, H), 0)
    render_mrz(ink, lines, mm(x0), mm(y_first_base), mm(line_pitch), mm(char_h), mm(pitch), ocrb, rng)
    rgb = apply_ink(rgb, ink, tuple(rng.randint(0, 40) for _ in range(3)), rng)
    box = (mm(x0) - 4, mm(mrz_top) - 4, min(W, mm(x0 + n * pitch) + 4), min(H, mm(y_first_base + (len(lines) - 1) * line_pitch) + mm(0.6)))
    return np.clip(rgb, 0, 255).astype(np.uint8), PXMM, box, dict(viz_font=os.path.basename(reg), labels="+".join(langs),
                                                                  ocrb=os.path.basename(ocrb), char_h_mm=round(char_h, 2))


# ----------------------------------------------------------------------------------------------
# Negatives: pages with no MRZ.

LETTER_TEXT = {
    "dev": ("Dear Sir or Madam, we confirm receipt of your application for a residence permit. Please bring your "
            "passport, two photographs and the completed form to your appointment. Documents must be originals; "
            "copies are not accepted. The office is open Monday to Friday from 9:00 to 12:30. Reference numbers "
            "such as AB-2024-000183 must be quoted in all correspondence. Yours faithfully, the Registry Office."),
}


def wrap(text, fnt, width, draw):
    words, lines, cur = text.split(), [], ""
    for w in words:
        t = (cur + " " + w).strip()
        if draw.textlength(t, font=fnt) > width and cur:
            lines.append(cur)
            cur = w
        else:
            cur = t
    if cur:
        lines.append(cur)
    return lines


def render_negative(rng, split, family):
    fonts = rng.choice(VIZ_FONTS[split])
    reg, bold = fonts
    mono = MONO_FONTS[split]
    px = 8.0
    mm = lambda v: int(round(v * px))
    if family == "neg-receipt":
        W, H = mm(80), mm(rng.uniform(150, 210))
    else:
        W, H = mm(210), mm(297)
    img = Image.new("RGB", (W, H), (rng.randint(245, 255),) * 3)
    d = ImageDraw.Draw(img)
    ink = (20, 20, 20)
    if family == "neg-letter":
        d.text((mm(20), mm(20)), "Registry Office · 4 Market Square · 1010 Utopia City", font=font(reg, mm(3.2)), fill=ink)
        d.text((mm(20), mm(32)), "Ms Anna Maria Eriksson\n12 Harbour Road\nUTOPIA 2201", font=font(reg, mm(4)), fill=ink, spacing=mm(1.5))
        d.text((mm(130), mm(60)), f"{rng.randint(1, 28)} March 2026", font=font(reg, mm(4)), fill=ink)
        d.text((mm(20), mm(75)), "Subject: your application AB-2024-000183", font=font(bold, mm(4.2)), fill=ink)
        y = mm(90)
        for para in range(rng.randint(3, 5)):
            for ln in wrap(LETTER_TEXT["dev"], font(reg, mm(4)), mm(170), d):
                d.text((mm(20), y), ln, font=font(reg, mm(4)), fill=ink)
                y += mm(6)
            y += mm(5)
            if y > mm(260):
                break
    elif family == "neg-code-listing":
        code = ["#include <vector>", "#include <map>", "", "template<typename T>",
                "std::vector<std::pair<int,int>> pairs(const std::map<T,std::vector<int>>& m) {",
                "    std::vector<std::pair<int,int>> out;   // <<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<",
                "    for (auto& [k, v] : m) out.push_back({k, v.size() << 2});",
                "    return out;", "}", "", "cat <<<'P<UTOERIKSSON<<ANNA<MARIA' | tr '<' ' '",
                "x <<= 3; y >>= 1; std::cout << x << y << std::endl;",
                "// <<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<",
                "#define MAGIC 0X1A2B3C4D5E6F708192A3B4C5D6E7F80",
                "static const char *ID = \"IDUTO<<<<<<<<<<<<<<<<<<<<<<<\";  // not an MRZ"]
        y = mm(20)
        for _ in range(2):
            for ln in code:
                d.text((mm(12), y), ln, font=font(mono, mm(3.0)), fill=ink)
                y += mm(5)
    elif family == "neg-receipt":
        f = font(mono, mm(3.2))
        y = mm(6)
        for ln in ["  MARKET HALL UTOPIA", "  VAT NO UTO123456789", "-" * 30]:
            d.text((mm(3), y), ln, font=f, fill=ink)
            y += mm(4.6)
        total = 0.0
        for _ in range(rng.randint(8, 16)):
            p = rng.randint(50, 2500) / 100
            total += p
            item = rng.choice(["BREAD", "MILK 1L", "APPLES", "COFFEE 500G", "SOAP", "RICE 2KG", "TEA", "EGGS X10"])
            d.text((mm(3), y), f"{item:<18}{p:>8.2f}", font=f, fill=ink)
            y += mm(4.6)
        for ln in ["<" * 30, f"{'TOTAL':<18}{total:>8.2f}", "CARD XXXX XXXX XXXX 4821", "AUTH 0O1I5S8B", "<" * 30,
                   "4006381333931", "THANK YOU<<SEE YOU SOON"]:
            d.text((mm(3), y), ln, font=f, fill=ink)
            y += mm(4.6)
            if y > H - mm(6):
                break
    elif family in ("neg-payment-slip", "neg-ocrb-card"):
        # OCR-B that is not an MRZ: a giro slip's coding line (digits, '>' and '+'), and a
        # membership card's OCR-B strip shaped like a TD1 zone (3 lines, 30 cells, '<' fillers)
        # whose contents follow no ICAO grammar (no document code, country, dates or checks).
        ocrb = OCRB[split]
        inkl = Image.new("L", (W, H), 0)
        dd = ImageDraw.Draw(inkl)
        digits = lambda n: "".join(rng.choice("0123456789") for _ in range(n))
        alnum = lambda n: "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(n))
        if family == "neg-payment-slip":
            d.text((mm(20), mm(20)), "INVOICE " + digits(6), font=font(bold, mm(6)), fill=ink)
            y = mm(40)
            for _ in range(rng.randint(5, 9)):
                d.text((mm(20), y), f"{rng.choice(['Service fee', 'Membership', 'Water', 'Electricity', 'Parking'])}"
                       f"   {rng.randint(5, 400)}.{rng.randint(0, 99):02d}", font=font(reg, mm(4)), fill=ink)
                y += mm(7)
            d.line([mm(0), mm(190), W, mm(190)], fill=(120, 120, 120), width=2)
            d.text((mm(20), mm(198)), "PAYMENT SLIP / GIRO", font=font(bold, mm(4)), fill=ink)
            refs = [digits(13) + ">" + digits(27) + "+ " + digits(9) + ">",
                    rng.choice(["<", ">"]) + digits(10) + "<<" + digits(16) + "<" + digits(3) + ">"]
            x0, y = mm(rng.uniform(15, 40)), mm(rng.uniform(255, 272))
        else:
            d.text((mm(20), mm(20)), rng.choice(["UTOPIA CITY LIBRARY", "FITNESS CLUB MEMBER", "TRANSIT PASS"]),
                   font=font(bold, mm(7)), fill=ink)
            d.text((mm(20), mm(36)), "Member: " + rng.choice(["Anna Maria Eriksson", "Ole Nordmann", "Juan Pérez"]),
                   font=font(reg, mm(5)), fill=ink)
            d.text((mm(20), mm(46)), "Valid until " + f"{rng.randint(1, 12):02d}/{rng.randint(27, 33)}",
                   font=font(reg, mm(5)), fill=ink)
            name = rng.choice(["ERIKSSON<<ANNA<MARIA", "NORDMANN<<OLE", "PEREZ<<JUAN<CARLOS"])
            refs = [("MBR" + alnum(rng.randint(6, 9)) + "<<" + digits(rng.randint(4, 8)) + "<" * 30)[:30],
                    (digits(rng.randint(8, 12)) + "<" + alnum(rng.randint(3, 6)) + "<<" + "<" * 30)[:30],
                    (name + "<" * 30)[:30]]
            x0, y = mm(rng.uniform(15, 30)), mm(rng.uniform(200, 240))
        for r in refs:
            dd.text((x0, y), r, font=font(ocrb, mm(2.3) / 0.73), fill=255, anchor="ls")
            y += mm(rng.uniform(4.2, 6))
        rgb = apply_ink(np.asarray(img, np.float32), inkl, ink, rng)
        img = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8))
    else:   # neg-form-mrzish: a form with OCR-B reference lines that are not an MRZ (wrong lengths, no grammar)
        d.text((mm(20), mm(15)), "APPLICATION FORM / FORMULÁRIO DE PEDIDO", font=font(bold, mm(6)), fill=ink)
        y = mm(35)
        for label in ["Surname", "Given names", "Date of birth", "Address", "Passport number", "Signature"]:
            d.text((mm(20), y), label, font=font(reg, mm(3.5)), fill=ink)
            d.rectangle([mm(70), y - mm(1), mm(190), y + mm(7)], outline=ink, width=2)
            y += mm(14)
        ocrb = OCRB[split]
        inkl = Image.new("L", (W, H), 0)
        refs = ["REF<2024<INV<00931<<<<<<<<<", "<" * 40, "ACCOUNT<<NUMBER<<1234567890<<<<<<",
                "0O1I5S8B2Z6G<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<"[:rng.choice([38, 41])]]
        dd = ImageDraw.Draw(inkl)
        y = mm(200)
        for r in refs:
            dd.text((mm(20), y), r, font=font(ocrb, mm(2.3) / 0.73), fill=255, anchor="ls")
            y += mm(rng.uniform(4.2, 9))
        rgb = apply_ink(np.asarray(img, np.float32), inkl, ink, rng)
        img = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8))
    return np.asarray(img, np.uint8).copy(), px, None, dict(viz_font=os.path.basename(reg))


# ----------------------------------------------------------------------------------------------
# Captures

def background_texture(w, h, rng):
    sw, sh = max(8, w // 4), max(8, h // 4)
    kind = rng.choice(["wood", "cloth", "desk", "paper"])
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    n = cv2.resize(np.random.default_rng(rng.randint(0, 2**31)).random((sh // 8 + 2, sw // 8 + 2)).astype(np.float32), (sw, sh))
    if kind == "wood":
        base = np.array(rng.choice([(150, 100, 60), (120, 80, 50), (185, 140, 95)]), np.float32)
        t = 0.5 + 0.5 * np.sin(yy / rng.uniform(3, 8) + 6 * n)
        img = base * (0.75 + 0.3 * t[..., None])
    elif kind == "cloth":
        base = np.array([rng.randint(30, 200) for _ in range(3)], np.float32)
        t = 0.5 + 0.25 * np.sin(xx * 1.3) * np.sin(yy * 1.3)
        img = base * (0.8 + 0.3 * t[..., None] + 0.1 * n[..., None])
    elif kind == "desk":
        base = np.array([rng.randint(60, 140)] * 3, np.float32)
        img = base * (0.85 + 0.3 * n[..., None])
    else:
        base = np.array([rng.randint(200, 240)] * 3, np.float32)
        img = base * (0.92 + 0.1 * n[..., None])
    img = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    return img, kind


def warp_onto(doc, out_w, out_h, bg, target_w, tilt, rot, center, rng):
    """Project the document (tilted in 3-D by up to `tilt` degrees, rotated by `rot` in the image
    plane) onto the background; returns the image and the homography doc->image."""
    h, w = doc.shape[:2]
    s = target_w / w
    if s < 0.9:    # pre-shrink so warpPerspective does not alias
        small = cv2.resize(doc, (max(1, int(w * s * 1.05)), max(1, int(h * s * 1.05))), interpolation=cv2.INTER_AREA)
        pre = np.array([[small.shape[1] / w, 0, 0], [0, small.shape[0] / h, 0], [0, 0, 1]], np.float64)
        doc_src = small
    else:
        pre = np.eye(3)
        doc_src = doc
    ax, ay = math.radians(rng.uniform(-tilt, tilt)), math.radians(rng.uniform(-tilt, tilt))
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float64) * s
    f = max(out_w, out_h) * 1.1
    Rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    Ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    pts = np.c_[corners, np.zeros(4)] @ (Ry @ Rx).T
    pts = pts[:, :2] * (f / (f + pts[:, 2:3]))
    r = math.radians(rot)
    R2 = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    pts = pts @ R2.T
    # keep the whole document in the frame (an MRZ cut off at the edge is a different test)
    bw, bh = np.ptp(pts[:, 0]), np.ptp(pts[:, 1])
    pts *= min(1.0, 0.94 * out_w / bw, 0.94 * out_h / bh)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    m = 0.02 * min(out_w, out_h)
    cx = min(max(center[0], -lo[0] + m), out_w - hi[0] - m)
    cy = min(max(center[1], -lo[1] + m), out_h - hi[1] - m)
    pts = pts + np.array([cx, cy])
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    Hd = cv2.getPerspectiveTransform(src.astype(np.float32), pts.astype(np.float32))
    Hs = Hd @ np.linalg.inv(pre)
    warped = cv2.warpPerspective(doc_src, Hs, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    mask = cv2.warpPerspective(np.full(doc_src.shape[:2], 255, np.uint8), Hs, (out_w, out_h), flags=cv2.INTER_LINEAR)
    out = bg.copy()
    np.copyto(out, warped, where=(mask > 127)[..., None])    # uint8 compositing: float copies of a 4000-px frame cost seconds
    return out.astype(np.float32), Hd


def map_pt(H, x, y):
    v = H @ np.array([x, y, 1.0])
    return v[0] / v[2], v[1] / v[2]


def scan(doc, px, dpi, rng, angle=0.0, margin_mm=(3, 12), paper=None):
    s = min(1.0, dpi / 25.4 / px)
    img = cv2.resize(doc, (max(1, int(doc.shape[1] * s)), max(1, int(doc.shape[0] * s))), interpolation=cv2.INTER_AREA)
    m = int(rng.uniform(*margin_mm) * px * s)
    paper = paper if paper is not None else rng.randint(238, 255)
    img = cv2.copyMakeBorder(img, m, m, m, m, cv2.BORDER_CONSTANT, value=(paper,) * 3)
    if angle:
        h, w = img.shape[:2]
        M = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        c, sn = abs(M[0, 0]), abs(M[0, 1])
        nw, nh = int(h * sn + w * c), int(h * c + w * sn)
        M[0, 2] += nw / 2 - w / 2
        M[1, 2] += nh / 2 - h / 2
        img = cv2.warpAffine(img, M, (nw, nh), flags=cv2.INTER_LINEAR, borderValue=(paper,) * 3)
    return img.astype(np.float32), s


def add_noise(img, rng, sigma):
    g = np.random.default_rng(rng.randint(0, 2**31))
    if img.shape[0] * img.shape[1] > 4_000_000:     # big photos: a tiled noise field (cheap, looks the same)
        th, tw = 1024, 1024
        tile = g.normal(0, sigma, (th, tw) + img.shape[2:]).astype(np.float32)
        for y in range(0, img.shape[0], th):
            for x in range(0, img.shape[1], tw):
                blk = img[y:y + th, x:x + tw]
                blk += tile[:blk.shape[0], :blk.shape[1]]
        return img
    return img + g.normal(0, sigma, img.shape).astype(np.float32)


def motion_blur(img, rng, length):
    k = np.zeros((length, length), np.float32)
    k[length // 2, :] = 1
    M = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
    k = cv2.warpAffine(k, M, (length, length))
    return cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))


def capture(doc, px, box, cap, rng):
    """Returns (PIL image, extension, params)."""
    p = {}
    u8 = lambda a: np.clip(a, 0, 255).astype(np.uint8)
    if cap == "flatbed":
        img, _ = scan(doc, px, 300, rng)
        return Image.fromarray(u8(img)), "png", dict(dpi=300)
    if cap == "flatbed-skew":
        dpi, ang = rng.choice([150, 200, 240, 300]), rng.uniform(-6, 6)
        img, _ = scan(doc, px, dpi, rng, angle=ang)
        img = add_noise(img, rng, 2.0)
        return Image.fromarray(u8(img)), "jpg", dict(dpi=dpi, angle=round(ang, 2), quality=90)
    if cap == "fax":
        gray = cv2.cvtColor(doc, cv2.COLOR_RGB2GRAY)
        ang = rng.uniform(-1.5, 1.5)
        img, _ = scan(np.dstack([gray] * 3), px, 204, rng, angle=ang)
        g = img[..., 0]
        h, w = g.shape
        lo = cv2.resize(g, (w, max(1, int(h * 98 / 204))), interpolation=cv2.INTER_AREA)
        thr = rng.uniform(110, 160)
        bw = (add_noise(lo, rng, 8) > thr).astype(np.uint8) * 255
        bw = cv2.resize(bw, (w, bw.shape[0] * 2), interpolation=cv2.INTER_NEAREST)
        return Image.fromarray(bw).convert("1"), "png", dict(dpi="204x98", threshold=int(thr), angle=round(ang, 2))
    if cap == "photocopy":
        gray = cv2.cvtColor(doc, cv2.COLOR_RGB2GRAY)
        dpi, ang = rng.choice([200, 300]), rng.uniform(-2.5, 2.5)
        img, _ = scan(np.dstack([gray] * 3), px, dpi, rng, angle=ang)
        g = img[..., 0]
        c = rng.uniform(0.5, 0.75)
        floor = rng.uniform(190, 225)
        g = floor - (255 - g) * c * floor / 255
        g = cv2.GaussianBlur(g, (0, 0), rng.uniform(0.3, 0.9))
        gen = np.random.default_rng(rng.randint(0, 2**31))
        dens = rng.uniform(0.002, 0.01)
        spk = gen.random(g.shape) < dens
        g[spk] = gen.uniform(20, 120, spk.sum())
        blobs = (cv2.GaussianBlur((gen.random(g.shape) < dens / 20).astype(np.float32), (0, 0), 1.2) > 0.05)
        g[blobs] *= 0.4
        g = add_noise(g, rng, 6)
        return Image.fromarray(u8(g)), "png", dict(dpi=dpi, contrast=round(c, 2), speckle=round(dens, 4))
    if cap == "shadow":
        dpi = rng.choice([200, 300])
        img, s = scan(doc, px, dpi, rng, angle=rng.uniform(-2, 2))
        h, w = img.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        if rng.random() < 0.5:
            a = math.radians(rng.uniform(0, 360))
            t = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h) + 0.5
            shade = rng.uniform(0.4, 0.65) + (1 - rng.uniform(0.4, 0.65)) * np.clip(t, 0, 1)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            r = np.hypot((xx - cx) / w, (yy - cy) / h)
            shade = 1 - rng.uniform(0.35, 0.55) * np.clip(1 - r / rng.uniform(0.4, 0.7), 0, 1) ** 0.7
        shade = cv2.GaussianBlur(shade.astype(np.float32), (0, 0), 15)
        img = img * shade[..., None] * np.array([1.0, 0.97, 0.9], np.float32)
        img = add_noise(img, rng, 3)
        return Image.fromarray(u8(img)), "jpg", dict(dpi=dpi, quality=88)
    # photographs
    if cap in ("phone", "glare"):
        ow, oh = (1600, 1200) if rng.random() < 0.7 else (1200, 1600)
        if cap == "glare":
            ow, oh = (1400, 1050)
        frac = rng.uniform(0.55, 0.85) if cap == "phone" else rng.uniform(0.7, 0.88)
        tilt = 25 if cap == "phone" else 10
        r = rng.random()
        if cap == "glare" or r < 0.6:
            rot = rng.uniform(-15, 15)
        elif r < 0.87:
            rot = rng.uniform(0, 360)
        else:
            rot = 180 + rng.uniform(-8, 8)
    elif cap == "photo-large":
        ow, oh = (4000, 3000) if rng.random() < 0.75 else (3000, 4000)
        frac, tilt, rot = rng.uniform(0.2, 0.32), 15, rng.uniform(-15, 15)
    else:   # small: MRZ characters 8-12 px high
        char_px = rng.uniform(8, 12)
        chm = rng.uniform(2.0, 2.5) * px
        s = char_px / chm
        target_w = doc.shape[1] * s
        ow = max(600, int(target_w * 1.06))
        frac = target_w / ow
        oh = int(ow * rng.uniform(0.7, 0.8)) if doc.shape[0] < doc.shape[1] else int(ow * 1.4)
        oh = max(oh, int(doc.shape[0] * s * 1.08))
        tilt, rot = 4, rng.uniform(-3, 3)
    bg, bgkind = background_texture(ow, oh, rng) if cap != "small" else (np.full((oh, ow, 3), rng.randint(200, 250), np.uint8), "plain")
    target_w = ow * frac
    dh = doc.shape[0] * target_w / doc.shape[1]
    if cap != "small" and dh > oh * 0.8:
        target_w *= oh * 0.8 / dh
    cx = ow / 2 + rng.uniform(-0.12, 0.12) * ow * (1 - frac)
    cy = oh / 2 + rng.uniform(-0.12, 0.12) * oh
    img, Hd = warp_onto(doc, ow, oh, bg, target_w, tilt, rot, (cx, cy), rng)
    p.update(size=f"{ow}x{oh}", doc_frac=round(target_w / ow, 2), rotation=round(rot, 1), background=bgkind)
    h, w = img.shape[:2]
    sy, sx = np.mgrid[0:h // 8 + 1, 0:w // 8 + 1].astype(np.float32)   # light map at 1/8 size
    lx, ly, la = rng.random(), rng.random(), rng.uniform(-0.15, 0.05)
    light = cv2.resize(1 + la * np.hypot(sx * 8 / w - lx, sy * 8 / h - ly), (w, h), interpolation=cv2.INTER_LINEAR)
    img *= light[..., None]
    del light
    if cap == "glare" and box:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        mx, my = map_pt(Hd, rng.uniform(box[0], box[2]), (box[1] + box[3]) / 2)
        (ax_, ay_), (bx_, by_) = map_pt(Hd, box[0], box[1]), map_pt(Hd, box[2], box[1])
        mw = math.hypot(bx_ - ax_, by_ - ay_)
        rad = mw * rng.uniform(0.08, 0.18)
        gl = np.exp(-((((xx - mx) ** 2 + ((yy - my) * rng.uniform(0.7, 1.4)) ** 2) / (2 * rad ** 2)) ** 1.5))
        a = rng.uniform(0.72, 0.9)
        img = img + (255 - img) * (a * gl)[..., None]
        p["glare"] = round(a, 2)
    if cap in ("phone", "glare"):
        if rng.random() < 0.5:
            L = rng.choice([3, 5, 7])
            img = motion_blur(img, rng, L)
            p["motion_blur"] = L
        else:
            sg = rng.uniform(0.6, 1.6)
            img = cv2.GaussianBlur(img, (0, 0), sg)
            p["defocus"] = round(sg, 2)
        q = rng.randint(30, 70)
    elif cap == "photo-large":
        img = cv2.GaussianBlur(u8(img), (0, 0), rng.uniform(0.5, 1.2)).astype(np.float32)
        q = rng.randint(55, 75)
    else:
        q = rng.randint(75, 90)
    img = add_noise(img, rng, rng.uniform(2, 5))
    p["quality"] = q
    return Image.fromarray(u8(img)), "jpg", p


# ----------------------------------------------------------------------------------------------

def doc_rng(seed, split, index):
    h = hashlib.sha256(f"mrz-corpus/{seed}/{split}/{index}".encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def plan(split, count, seed):
    """Which family, format, capture and corruption each document gets (balanced, shuffled)."""
    rng = doc_rng(seed, split, "plan")
    fams = FAMILIES[split]
    weights = [FAMILY_WEIGHTS[k] for _, k, _ in fams]
    fam_list = []
    for i in range(count):
        fam_list.append(fams[i % len(fams)] if i < len(fams) else rng.choices(fams, weights)[0])
    caps = []
    while len(caps) < count:
        c = CAPTURES[:]
        rng.shuffle(c)
        caps += c
    n_bad = round(count * 0.10)
    bad = set(rng.sample(range(count), n_bad))
    items = []
    for i in range(count):
        name, kind, style = fam_list[i]
        if kind == "td3":
            fmt = "TD3"
        elif kind == "td1":
            fmt = "TD1"
        elif kind == "td2":
            fmt = "TD2"
        elif kind == "visa":
            fmt = rng.choice(["MRVA", "MRVB"])
        else:
            fmt = rng.choices(["TD3", "TD1", "TD2", "MRVA", "MRVB"], [0.45, 0.25, 0.14, 0.08, 0.08])[0]
        items.append(dict(family=name, kind=kind, style=style, format=fmt, capture=caps[i], bad=i in bad))
    negs = NEGATIVES[split]
    n_neg = max(2, round(count * 0.107))
    for j in range(n_neg):
        items.append(dict(family=negs[j % len(negs)], kind="neg", style={}, format="none", capture=caps[j % len(caps)], bad=False))
    rng.shuffle(items)
    return items


def stamp(count, seed):
    with open(os.path.abspath(__file__), "rb") as fh:
        gen = hashlib.sha256(fh.read()).hexdigest()[:16]
    return {"generator": gen, "count": count, "seed": seed}


def generate(out_dir, split, count, seed, quiet=False):
    d = os.path.join(out_dir, split)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if f.endswith((".png", ".jpg", ".json")):      # a stale corpus goes entirely
            os.remove(os.path.join(d, f))
    manifest = []
    t0 = time.time()
    for i, it in enumerate(plan(split, count, seed)):
        rng = doc_rng(seed, split, i)
        np.random.seed(rng.randint(0, 2**31 - 1))
        if it["kind"] == "neg":
            doc, px, box, info = render_negative(rng, split, it["family"])
            lines, failed = [], []
        else:
            ident = make_identity(rng, it["format"])
            lines, checks = build_mrz(rng, it["format"], ident)
            if it["bad"]:
                lines, _ = corrupt(rng, lines, checks)
            failed = verify(it["format"], lines)
            assert bool(failed) == it["bad"], (lines, failed)
            doc, px, box, info = render_document(rng, split, it["kind"], it["style"], it["format"], ident, lines)
        img, ext, params = capture(doc, px, box, it["capture"], rng)
        name = f"{split}-{i:03d}-{it['family']}-{it['capture']}"
        path = os.path.join(d, f"{name}.{ext}")
        if ext == "jpg":
            img.save(path, quality=params.get("quality", 90))
        else:
            img.save(path, optimize=False, compress_level=6)
        truth = {"file": os.path.basename(path), "format": it["format"], "lines": lines, "check_digits_valid": not failed,
                 "failed_checks": failed, "family": it["family"], "capture": it["capture"], "split": split,
                 "capture_params": params, "render": info}
        with open(os.path.join(d, name + ".truth.json"), "w") as fh:
            json.dump(truth, fh, indent=1, ensure_ascii=False)
        manifest.append(truth)
        if not quiet and (i + 1) % 25 == 0:
            print(f"  {split}: {i + 1} documents, {time.time() - t0:.0f} s", file=sys.stderr)
    with open(os.path.join(d, "manifest.json"), "w") as fh:
        json.dump({"split": split, "count": count, "seed": seed, "documents": manifest}, fh, indent=1, ensure_ascii=False)
    with open(os.path.join(d, "stamp.json"), "w") as fh:    # lets the benchmark see a stale corpus
        json.dump(stamp(count, seed), fh)
    return manifest


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("--split", choices=["dev", "test", "all"], default="all")
    ap.add_argument("--count", type=int, default=150, help="documents with an MRZ per split (negatives: about 10%% more)")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    for split in (["dev", "test"] if a.split == "all" else [a.split]):
        t0 = time.time()
        m = generate(a.out_dir, split, a.count, a.seed, a.quiet)
        if not a.quiet:
            print(f"{split}: {len(m)} files ({sum(1 for x in m if x['format'] != 'none')} with an MRZ, "
                  f"{sum(1 for x in m if x['lines'] and not x['check_digits_valid'])} with a wrong check digit) "
                  f"in {time.time() - t0:.0f} s -> {os.path.join(a.out_dir, split)}", file=sys.stderr)


if __name__ == "__main__":
    main()
