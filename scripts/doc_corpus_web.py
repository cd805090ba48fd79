#!/usr/bin/env python3
"""A second document generator, independent of `doc_corpus.py`'s drawing code: opt-out requests
and ID cards laid out as HTML and rendered by a real browser (headless Chromium), so that the
engine meets layouts a person did not place pixel by pixel — tables with borders, definition lists,
several pairs per line with separators, tick boxes after their labels, printed e-mails with the
request in prose, driver licences with numbered labels, bilingual cards with an issue date beside
the dates that count — and wording written for this generator only.

    scripts/make-doc-corpus-web OUT_DIR [--count N] [--seed S] [--jobs J]

Writes OUT/dev/NAME.png|.jpg, NAME.truth.json and manifest.json in the format of
`doc_corpus.py` (so `benchmarks/doc-accuracy --corpus OUT --split dev` scores it). Every family
here is a *dev* family: tune on one seed, check on another; the generated test split of
`doc_corpus.py` stays the figure that counts. Captures are `doc_corpus.py`'s. Fonts are dev
fonts only (none of the test split's).
"""
import argparse
import concurrent.futures
import hashlib
import html
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_corpus import (BROKERS, CAPTURES, MONTHS, address, ascii_fold, capture, date, email_for, full_name, iso,  # noqa: E402
                        person, phone, save)

FONTS = ["DejaVu Sans", "DejaVu Serif", "Liberation Sans", "Liberation Serif", "Lato", "Roboto", "Roboto Condensed",
         "Nimbus Sans", "Nimbus Roman", "C059", "P052", "URW Bookman", "URW Gothic", "Nimbus Sans Narrow"]
OPTOUT_FAMILIES = ["web-optout-portal", "web-optout-table4", "web-optout-inline", "web-optout-email"]
ID_FAMILIES = ["web-id-licence-numbered", "web-id-card-bilingual"]

# Wording of this generator only (label synonyms and option phrasings the other generator does not use).
LAB = {
    "full_name": ["Name of Consumer", "Your full name", "Legal Name", "Requestor Name", "Name (as listed)", "Consumer"],
    "email": ["Email address on file", "E-mail", "Contact e-mail", "Email for confirmation", "Your e-mail address"],
    "phone": ["Telephone number", "Phone (optional)", "Cell phone", "Best number to reach you", "Daytime Phone"],
    "street_address": ["Current street address", "Street address", "Home address", "Address line 1", "Residence"],
    "city": ["City", "City / Town"], "state": ["State", "State/Province"], "zip": ["ZIP", "ZIP code", "Zip/Postal code"],
    "date_of_birth": ["Date of birth", "Birthday", "DOB (MM/DD/YYYY)", "Birth date"],
    "listing_url": ["URL of the listing", "Link to your profile", "Profile address", "Listing link", "URL(s) to remove"],
    "request_id": ["Confirmation number", "Case ID", "Ticket No.", "Request reference", "Tracking number"],
    "date": ["Date submitted", "Submission date", "Request received", "Date", "Submitted on"],
}
OPTION_TEXT = {
    "delete": ["Delete my information from your records", "Remove my profile and all associated records",
               "Delete all personal data you hold about me"],
    "do_not_sell": ["Do not sell or share my personal information", "Opt out of the sale of my data",
                    "Stop sharing my information with third parties"],
    "opt_out_marketing": ["Remove me from marketing and mailing lists", "Opt out of direct marketing",
                          "No marketing e-mails, calls or mail"],
    "access": ["Provide a copy of the data you hold about me", "Right to know: send me my data",
               "Access request (copy of my information)"],
}


def rng_for(seed, index):
    h = hashlib.sha256(f"doc-corpus-web/{seed}/{index}".encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def fmt(d, style):
    y, m, dd = d
    return {"long": f"{MONTHS[m - 1]} {dd}, {y}", "us": f"{m:02d}/{dd:02d}/{y}", "us-short": f"{m}/{dd}/{y}",
            "iso": iso(d), "abbr": f"{MONTHS[m - 1][:3]}. {dd}, {y}", "dmy": f"{dd:02d}.{m:02d}.{y}",
            "dmy-mon": f"{dd:02d} {MONTHS[m - 1][:3].upper()} {y}", "dmy-long": f"{dd} {MONTHS[m - 1]} {y}"}[style]


def esc(s):
    return html.escape(s, quote=True)


class Doc:
    """HTML body parts plus the printed lines in reading order (the text truth)."""

    def __init__(self):
        self.parts, self.lines = [], []

    def add(self, markup, *lines):
        self.parts.append(markup)
        self.lines += [ln for ln in lines if ln]


def optout(rng, family):
    broker = rng.choice(BROKERS)
    host = broker.lower().replace(" ", "")
    name = full_name(rng)
    a = address(rng)
    em = email_for(name, rng)
    ph_digits, ph = phone(rng)
    dob, req = date(rng, 1940, 2004), date(rng, 2022, 2026)
    style = rng.choice(["long", "us", "us-short", "iso", "abbr", "dmy-long"])
    slug = "-".join(ascii_fold(name).lower().split())
    url = f"https://www.{host}.com/{rng.choice(['person', 'listing', 'people', 'profile'])}/{slug}/{rng.randint(10000, 99999)}"
    rid = f"{rng.choice(['REQ', 'OPT', 'DSR', 'CASE', 'PRV'])}-{rng.randint(100000, 999999)}"
    ticked = sorted(set(rng.sample(list(OPTION_TEXT), rng.randint(1, 3))))
    state_val = a["state"] if rng.random() < 0.6 else a["state_name"]
    truth = {"data_broker": broker, "full_name": name, "email": em, "phone": ph_digits, "street_address": a["street"],
             "city": a["city"], "state": a["state"], "zip": a["zip"], "date": iso(req), "date_of_birth": iso(dob),
             "listing_url": url.lower(), "request_id": rid, "request_options": ",".join(ticked)}
    L = lambda f: rng.choice(LAB[f])
    reqd, dobd = fmt(req, style), fmt(dob, style if style != "iso" else "us")
    # the broker's own contact details, never the requester's
    ba = address(rng)
    b_phone = f"1-800-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"
    b_mail = f"{rng.choice(['privacy', 'optout', 'support', 'dsar'])}@{host}.com"
    opts = {k: rng.choice(v) for k, v in OPTION_TEXT.items()}
    d = Doc()
    if family == "web-optout-portal":
        d.add(f"<div class=hdr><b class=logo>{esc(broker)}</b><span class=nav>Home &nbsp; Search &nbsp; Privacy &nbsp; Help</span></div>",
              f"{broker} Home Search Privacy Help")
        title = rng.choice(["Opt-Out Request Confirmation", "Data Removal Request", "Your Privacy Request", "Record Suppression Request"])
        d.add(f"<h1>{title}</h1>", title)
        d.add(f"<p class=small>{L('request_id')}: <b>{rid}</b> &nbsp;&middot;&nbsp; {L('date')}: <b>{esc(reqd)}</b></p>",
              f"{L('request_id')}: {rid} · {L('date')}: {reqd}")
        items = [(L("full_name"), name), (L("date_of_birth"), dobd), (L("street_address"), a["street"]), ("City", a["city"]),
                 ("State", state_val), (L("zip"), a["zip"]), (L("email"), em), (L("phone"), ph), (L("listing_url"), url)]
        cells = []
        for lab_, val in items:
            cells.append(f"<div class=fld><div class=lab>{esc(lab_)}</div><div class=val>{esc(val)}</div></div>")
            d.lines += [lab_, val]
        d.add("<div class=grid>" + "".join(cells) + "</div>")
        d.add(f"<h3>{rng.choice(['What would you like us to do?', 'Requested actions', 'Select your request'])}</h3>")
        for k, text in opts.items():
            box = "&#10003;" if k in ticked else "&nbsp;"
            d.add(f"<div class=opt><span class=box>{box}</span> {esc(text)}</div>", text)
        d.add(f"<div class=ftr>&copy; 2025 {esc(broker)}, Inc. &middot; {esc(ba['street'])}, {esc(ba['city'])}, {ba['state']} {ba['zip']}"
              f" &middot; {b_mail} &middot; {b_phone}</div>",
              f"© 2025 {broker}, Inc. · {ba['street']}, {ba['city']}, {ba['state']} {ba['zip']} · {b_mail} · {b_phone}")
    elif family == "web-optout-table4":
        d.add(f"<div class=lh><b>{esc(broker)}</b><br><span class=small>{esc(ba['street'])} &middot; {esc(ba['city'])}, "
              f"{ba['state']} {ba['zip']} &middot; Tel. {b_phone}</span></div>",
              broker, f"{ba['street']} · {ba['city']}, {ba['state']} {ba['zip']} · Tel. {b_phone}")
        title = rng.choice(["CONSUMER PRIVACY REQUEST FORM", "DATA SUBJECT REQUEST", "REQUEST TO OPT OUT"])
        d.add(f"<h2>{title}</h2>", title)
        rows = [((L("full_name"), name), (L("date_of_birth"), dobd)), ((L("street_address"), a["street"]), ("City", a["city"])),
                (("State", state_val), (L("zip"), a["zip"])), ((L("email"), em), (L("phone"), ph)),
                ((L("request_id"), rid), (L("date"), reqd))]
        t = "<table class=t4><tr><th colspan=4>Requester information</th></tr>"
        d.lines.append("Requester information")
        for (l1, v1), (l2, v2) in rows:
            t += f"<tr><td class=l>{esc(l1)}</td><td>{esc(v1)}</td><td class=l>{esc(l2)}</td><td>{esc(v2)}</td></tr>"
            d.lines.append(f"{l1} {v1} {l2} {v2}")
        t += f"<tr><td class=l>{esc(L('listing_url'))}</td><td colspan=3>{esc(url)}</td></tr></table>"
        d.lines.append(f"{L('listing_url')} {url}")
        d.add(t)
        mark_on, mark_off = rng.choice([("&#9746;", "&#9744;"), ("[X]", "[&nbsp;&nbsp;]"), ("&#9745;", "&#9744;")])
        t = "<table class=t4><tr><th colspan=2>Request type</th></tr>"
        d.lines.append("Request type")
        for k, text in opts.items():
            t += f"<tr><td>{esc(text)}</td><td class=c>{mark_on if k in ticked else mark_off}</td></tr>"
            d.lines.append(text)
        d.add(t + "</table>")
        d.add(f"<p class=small>Return to {b_mail}</p>", f"Return to {b_mail}")
    elif family == "web-optout-inline":
        title = rng.choice([f"{broker} — Opt-Out Form", f"Opt-Out Request to {broker}", f"{broker} Privacy Request"])
        d.add(f"<h2>{esc(title)}</h2>", title)
        sep = rng.choice([" &nbsp;|&nbsp; ", " &nbsp;&nbsp;&nbsp; ", " &nbsp;&bull;&nbsp; "])
        rows = [[(L("full_name"), name), (L("date_of_birth"), dobd), (L("phone"), ph)],
                [(L("street_address"), a["street"])],
                [("City", a["city"]), ("State", state_val), (L("zip"), a["zip"])],
                [(L("email"), em), (L("date"), reqd)],
                [(L("listing_url"), url)], [(L("request_id"), rid)]]
        for row in rows:
            d.add("<p>" + sep.join(f"{esc(l)}: <b>{esc(v)}</b>" for l, v in row) + "</p>", "  ".join(f"{l}: {v}" for l, v in row))
        d.add("<p>Please take the following action(s):</p>", "Please take the following action(s):")
        for k, text in opts.items():
            d.add(f"<div class=opt>{'&#9746;' if k in ticked else '&#9744;'} {esc(text)}</div>", text)
    else:  # web-optout-email: a printed e-mail, the request in prose
        hdr_date = f"{['Mon', 'Tue', 'Wed', 'Thu', 'Fri'][rng.randint(0, 4)]}, {req[2]} {MONTHS[req[1] - 1][:3]} {req[0]} {rng.randint(8, 18):02d}:{rng.randint(0, 59):02d}"
        d.add(f"<div class=mail><b>From:</b> {esc(name)} &lt;{esc(em)}&gt;<br><b>To:</b> {b_mail}<br><b>Date:</b> {hdr_date}<br>"
              f"<b>Subject:</b> Removal request {rid}</div>",
              f"From: {name} <{em}>", f"To: {b_mail}", f"Date: {hdr_date}", f"Subject: Removal request {rid}")
        truth["date"] = iso(req)
        body = [f"To the {broker} privacy team,",
                f"My name is {name} and I was born on {dobd}. I live at {a['street']}, {a['city']}, {a['state']} {a['zip']}.",
                f"Your site shows a profile about me at {url}.",
                f"You can reach me at {ph} or at this e-mail address."]
        for para in body:
            d.add(f"<p>{esc(para)}</p>", para)
        d.add("<p>I ask you to:</p><ul>" + "".join(f"<li>{esc(opts[k])}</li>" for k in ticked) + "</ul>",
              "I ask you to:", *[opts[k] for k in ticked])
        d.add(f"<p>Sincerely,<br>{esc(name)}</p>", "Sincerely,", name)
        # prose options carry no tick: the engine is not expected to read them
        del truth["request_options"]
    return d, truth


def idcard(rng, family):
    g, s, _ = person(rng)
    g = g or "Alex"
    dob, exp = date(rng, 1940, 2006), date(rng, 2026, 2036)
    iss = (exp[0] - rng.choice([5, 8, 10]), exp[1], exp[2])
    sex = rng.choice(["F", "M"])
    nat = rng.choice(["USA", "CAN", "FRA", "BEL", "CHE", "LUX", "MAR", "SEN", "CIV", "HTI"])
    surname, given = ascii_fold(s).upper(), ascii_fold(g).upper()
    d = Doc()
    if family == "web-id-licence-numbered":
        st = address(rng)
        number = rng.choice([f"{rng.choice('ABDFGHJKMNPSTWY')}{rng.randint(1000000, 9999999)}", f"{rng.randint(100000000, 999999999)}",
                             f"{rng.choice('ABDFGHJKMNPSTWY')}{rng.randint(100, 999)}-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"])
        style = rng.choice(["us", "us"])
        truth = {"surname": surname, "given_names": given, "date_of_birth": iso(dob), "sex": sex,
                 "document_number": number.replace("-", ""), "expiry_date": iso(exp)}
        title = rng.choice(["DRIVER LICENSE", "DRIVER'S LICENSE", "OPERATOR LICENSE"])
        d.add(f"<div class=band><b>{st['state_name'].upper()}</b> <span>{title}</span> <span class=r>USA</span></div>",
              f"{st['state_name'].upper()} {title} USA")
        d.add("<div class=photo></div>")
        rows = [f"<span class=n>4d</span> DLN <b>{number}</b>", f"<span class=n>1</span> <b>{esc(surname)}</b>",
                f"<span class=n>2</span> <b>{esc(given)}</b>", f"<span class=n>8</span> {esc(st['street'].upper())}",
                f"{esc(st['city'].upper())}, {st['state']} {st['zip']}",
                f"<span class=n>3</span> DOB <b>{fmt(dob, style)}</b> &nbsp; <span class=n>15</span> SEX <b>{sex}</b>",
                f"<span class=n>4a</span> ISS {fmt(iss, style)} &nbsp; <span class=n>4b</span> EXP <b>{fmt(exp, style)}</b>",
                f"<span class=n>9</span> CLASS C &nbsp; <span class=n>12</span> RESTR NONE &nbsp; <span class=n>16</span> HGT 5'-0{rng.randint(1, 9)}\""]
        plain = [f"4d DLN {number}", f"1 {surname}", f"2 {given}", f"8 {st['street'].upper()}", f"{st['city'].upper()}, {st['state']} {st['zip']}",
                 f"3 DOB {fmt(dob, style)} 15 SEX {sex}", f"4a ISS {fmt(iss, style)} 4b EXP {fmt(exp, style)}",
                 "9 CLASS C 12 RESTR NONE 16 HGT"]
        d.add("<div class=info>" + "".join(f"<div>{r}</div>" for r in rows) + "</div>", *plain)
    else:  # web-id-card-bilingual: label over value, English / French, an issue date beside the others
        number = f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(1000000, 9999999)}"
        style = rng.choice(["dmy", "dmy-mon", "dmy-long"])
        truth = {"surname": surname, "given_names": given, "date_of_birth": iso(dob), "sex": sex, "nationality": nat,
                 "document_number": number, "expiry_date": iso(exp)}
        country = {"USA": "UNITED STATES", "CAN": "CANADA", "FRA": "RÉPUBLIQUE FRANÇAISE", "BEL": "BELGIQUE", "CHE": "SUISSE",
                   "LUX": "LUXEMBOURG", "MAR": "ROYAUME DU MAROC", "SEN": "RÉPUBLIQUE DU SÉNÉGAL", "CIV": "CÔTE D'IVOIRE",
                   "HTI": "RÉPUBLIQUE D'HAÏTI"}[nat]
        d.add(f"<div class=band><b>{esc(country)}</b><br><span>IDENTITY CARD / CARTE D'IDENTITÉ</span></div>",
              country, "IDENTITY CARD / CARTE D'IDENTITÉ")
        d.add("<div class=photo></div>")
        items = [("Surname / Nom", surname), ("Given names / Prénoms", given),
                 [("Sex / Sexe", sex), ("Nationality / Nationalité", nat)],
                 [("Date of birth / Date de naissance", fmt(dob, style))],
                 [("Date of issue / Délivrance", fmt(iss, style)), ("Expiry / Expiration", fmt(exp, style))],
                 ("Card No. / N° de carte", number)]
        html_, plain = "", []
        for it in items:
            group = it if isinstance(it, list) else [it]
            html_ += "<div class=row>" + "".join(f"<div class=cell><div class=lab>{esc(l)}</div><div class=val>{esc(v)}</div></div>"
                                                 for l, v in group) + "</div>"
            plain += ["  ".join(l for l, _ in group), "  ".join(v for _, v in group)]
        d.add("<div class=info>" + html_ + "</div>", *plain)
    return d, truth


CSS_PAGE = """
body{margin:0;width:850px;height:1100px;background:#fff;color:#111;font-family:'%(font)s';font-size:%(fs)spx}
.wrap{padding:%(pad)spx} h1{font-size:1.7em;margin:.5em 0} h2{font-size:1.35em} h3{font-size:1.1em;margin:1.2em 0 .4em}
.small{font-size:.85em} .hdr{display:flex;justify-content:space-between;border-bottom:2px solid #345;padding:8px 0}
.logo{font-size:1.6em;color:#234} .nav{color:#456} .grid{display:grid;grid-template-columns:repeat(%(cols)s,1fr);gap:14px 28px}
.lab{font-size:.8em;color:#555;text-transform:%(tt)s} .val{border:1px solid #999;padding:4px 6px;margin-top:2px;background:%(fill)s}
.opt{margin:7px 0} .box{display:inline-block;width:16px;height:16px;border:1.5px solid #222;text-align:center;line-height:16px;font-weight:bold}
.ftr{position:absolute;bottom:40px;left:%(pad)spx;right:%(pad)spx;border-top:1px solid #aaa;padding-top:6px;font-size:.75em;color:#444}
.lh{text-align:%(lh)s;border-bottom:1px solid #888;padding-bottom:8px} table.t4{border-collapse:collapse;width:100%%;margin:14px 0}
.t4 td,.t4 th{border:1px solid #333;padding:6px 8px;text-align:left} .t4 td.l{background:%(fill)s;width:18%%;font-size:.9em}
.t4 td.c{text-align:center;width:12%%} .t4 th{background:#ddd} .mail{border-bottom:1px solid #999;padding-bottom:10px;line-height:1.5}
p{line-height:1.45}
"""
CSS_CARD = """
body{margin:0;width:%(w)spx;height:%(h)spx;background:%(bg)s;color:#111;font-family:'%(font)s';font-size:%(fs)spx;position:relative;overflow:hidden}
.band{background:%(band)s;color:#fff;padding:5px 10px;font-size:1.05em} .band .r{float:right}
.photo{position:absolute;left:12px;top:%(ptop)spx;width:%(pw)spx;height:%(ph)spx;background:#a99a8c;border-radius:4px}
.info{position:absolute;left:%(ix)spx;top:%(ptop)spx;right:10px;line-height:1.3} .n{color:#a22;font-size:.8em}
.row{display:flex;gap:16px;margin-bottom:3px} .lab{font-size:.62em;color:#335} .val{font-weight:bold;white-space:nowrap}
"""


def render_html(markup, w, h, scale, chromium):
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "p.html"), os.path.join(tmp, "p.png")
        with open(src, "w") as fh:
            fh.write(markup)
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--force-device-scale-factor={scale}",
                        f"--window-size={w},{h}", f"--screenshot={out}", f"file://{src}"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        return Image.open(out).convert("RGB")


def plan(count, seed):
    rng = rng_for(seed, "plan")
    items = []
    for kind, fams in (("optout", OPTOUT_FAMILIES), ("id", ID_FAMILIES)):
        caps = CAPTURES[:]
        for i in range(count):
            if i % len(caps) == 0:
                rng.shuffle(caps)
            items.append(dict(kind=kind, family=fams[i % len(fams)], capture=caps[i % len(caps)]))
    return items


def render_one(args):
    count, seed, i, out, chromium = args
    it = plan(count, seed)[i]
    rng = rng_for(seed, i)
    np.random.seed(rng.randint(0, 2**31 - 1))
    font = rng.choice(FONTS)
    if it["kind"] == "optout":
        d, truth = optout(rng, it["family"])
        css = CSS_PAGE % dict(font=font, fs=rng.choice([13, 14, 15, 16]), pad=rng.choice([50, 60, 75]), cols=rng.choice([2, 3]),
                              tt=rng.choice(["none", "uppercase"]), fill=rng.choice(["#fff", "#f2f2f2", "#eef3f8"]),
                              lh=rng.choice(["left", "center", "right"]))
        markup = f"<html><head><meta charset=utf-8><style>{css}</style></head><body><div class=wrap>{''.join(d.parts)}</div></body></html>"
        img = render_html(markup, 850, 1100, 3, chromium)  # 300 dpi letter
        px_per_mm = 300 / 25.4
    else:
        d, truth = idcard(rng, it["family"])
        w, h = 337, 213  # 85.6 × 54 mm at 100 CSS px per inch
        css = CSS_CARD % dict(w=w, h=h, font=font, fs=rng.choice([10, 11, 12]), bg=rng.choice(["#e8eef6", "#f3ece2", "#e9f2e7", "#f4f0f7"]),
                              band=rng.choice(["#1d3557", "#5a1e2c", "#1f4d2b", "#333"]), ptop=48, pw=78, ph=100, ix=100)
        markup = f"<html><head><meta charset=utf-8><style>{css}</style></head><body>{''.join(d.parts)}</body></html>"
        img = render_html(markup, w, h, 6, chromium)  # 600 dpi card
        px_per_mm = 600 / 25.4
    cimg, ext, params = capture(np.asarray(img), px_per_mm, it["capture"], rng)
    name = f"web-{seed}-{i:03d}-{it['family']}-{it['capture']}"
    save(cimg, ext, params, os.path.join(out, f"{name}.{ext}"))
    truth = {"file": f"{name}.{ext}", "kind": it["kind"], "family": it["family"], "capture": it["capture"], "split": "dev",
             "font": font, "fields": truth, "lines": d.lines, "capture_params": params}
    with open(os.path.join(out, name + ".truth.json"), "w") as fh:
        json.dump(truth, fh, indent=1, ensure_ascii=False)
    return truth


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("--count", type=int, default=24, help="documents per kind")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--chromium", default="chromium")
    a = ap.parse_args()
    out = os.path.join(a.out_dir, "dev")
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        if f.endswith((".png", ".jpg", ".json")):
            os.remove(os.path.join(out, f))
    n = len(plan(a.count, a.seed))
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        manifest = list(ex.map(render_one, [(a.count, a.seed, i, out, a.chromium) for i in range(n)]))
    with open(os.path.join(out, "manifest.json"), "w") as fh:
        json.dump({"split": "dev", "count": a.count, "seed": a.seed, "generator": "doc_corpus_web", "documents": manifest},
                  fh, indent=1, ensure_ascii=False)
    print(f"dev: {len(manifest)} pages -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
