"""Write a copy of the sample contract carrying thousands of comment threads, for the panel bench.

The project's comment writer re-reads every comment for each one it adds, which is right for a
person's one comment at a time and far too slow for 2,000; so the threads are written here with
lxml in the shape Word writes them: a ``w:comment`` per comment, a ``w15:commentEx`` with the
reply link (``paraIdParent``) and the resolved flag (``done``), and range markers plus a reference
run in the commented paragraph (a reply's markers sit beside its parent's, as Word places them).

Every fourth thread has a reply (every twelfth two), every fifth is resolved; comments cycle over
the sample's paragraphs, so several threads share a paragraph as they do in a heavily negotiated
draft. Output is deterministic for a given count.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "samples" / "sample-msa.docx"

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
W15 = "{http://schemas.microsoft.com/office/word/2012/wordml}"

AUTHORS = ("Priya Shah (Harbour Bank counsel)", "Daniel Okafor (Northwind)", "Alex Lawyer")
REMARKS = (
    "Please confirm this matches the term sheet agreed on the call.",
    "The Bank cannot accept this wording; we need the cap to apply per contract year and to "
    "exclude breaches of confidentiality and data protection, in line with the outsourcing policy.",
    "Defined term?",
    "Northwind's insurers have asked for this to be limited to direct loss only.",
)


def _para_text(p: etree._Element) -> str:
    return "".join(t.text or "" for t in p.iter(W + "t"))


def _comment(comment_id: int, para_id: str, author: str, date: str, text: str) -> etree._Element:
    comment = etree.Element(
        W + "comment", {W + "id": str(comment_id), W + "author": author, W + "date": date}
    )
    comment.set(W + "initials", "".join(word[0] for word in author.split()[:2]))
    p = etree.SubElement(comment, W + "p", {W14 + "paraId": para_id, W14 + "textId": para_id})
    ref = etree.SubElement(p, W + "r")
    etree.SubElement(ref, W + "annotationRef")
    etree.SubElement(etree.SubElement(p, W + "r"), W + "t").text = text
    return comment


def _mark(paragraph: etree._Element, comment_id: int) -> None:
    """Anchor ``comment_id`` on the whole paragraph: start after pPr, end and reference at the end."""
    ppr = paragraph.find(W + "pPr")
    start = etree.Element(W + "commentRangeStart", {W + "id": str(comment_id)})
    paragraph.insert(0 if ppr is None else paragraph.index(ppr) + 1, start)
    etree.SubElement(paragraph, W + "commentRangeEnd", {W + "id": str(comment_id)})
    etree.SubElement(
        etree.SubElement(paragraph, W + "r"), W + "commentReference", {W + "id": str(comment_id)}
    )


def write_commented_contract(out: Path, threads: int = 2000) -> Path:
    """Write the sample contract with ``threads`` extra comment threads to ``out``; return ``out``."""
    with zipfile.ZipFile(SAMPLE) as source:
        members = {info.filename: source.read(info) for info in source.infolist()}
        infos = source.infolist()
    document = etree.fromstring(members["word/document.xml"])
    comments = etree.fromstring(members["word/comments.xml"])
    extended = etree.fromstring(members["word/commentsExtended.xml"])
    body = document.find(W + "body")
    paragraphs = [p for p in body.iter(W + "p") if len(_para_text(p)) > 20]
    next_id = 5000
    for index in range(threads):
        paragraph = paragraphs[index % len(paragraphs)]
        day = 1 + index % 28
        parent_para = f"{0x10000000 + 2 * index:08X}"
        root_id = next_id
        next_id += 1
        remark = f"({index + 1}) " + REMARKS[index % len(REMARKS)]
        author = AUTHORS[index % 2]
        comments.append(_comment(root_id, parent_para, author, f"2025-03-{day:02d}T09:00:00Z", remark))
        done = "1" if index % 5 == 0 else "0"
        etree.SubElement(extended, W15 + "commentEx", {W15 + "paraId": parent_para, W15 + "done": done})
        _mark(paragraph, root_id)
        replies = 2 if index % 12 == 0 else 1 if index % 4 == 0 else 0
        for reply in range(replies):
            reply_para = f"{0x30000000 + 4 * index + reply:08X}"
            text = "Agreed." if reply else "We can live with this if the cap is per contract year."
            comments.append(
                _comment(next_id, reply_para, AUTHORS[2 - index % 2], f"2025-03-{day:02d}T11:00:00Z", text)
            )
            etree.SubElement(
                extended,
                W15 + "commentEx",
                {W15 + "paraId": reply_para, W15 + "paraIdParent": parent_para, W15 + "done": done},
            )
            _mark(paragraph, next_id)
            next_id += 1
    members["word/document.xml"] = etree.tostring(
        document, xml_declaration=True, encoding="UTF-8", standalone=True
    )
    members["word/comments.xml"] = etree.tostring(
        comments, xml_declaration=True, encoding="UTF-8", standalone=True
    )
    members["word/commentsExtended.xml"] = etree.tostring(
        extended, xml_declaration=True, encoding="UTF-8", standalone=True
    )
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in infos:
            target.writestr(info, members[info.filename])
    return out
