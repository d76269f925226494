#!/usr/bin/env python3
"""Writes the synthetic RenLib libraries of this folder (see README.md).

An independent writer, in Python with its own GBK and Shift-JIS codecs, that follows RenLib's
own (CRenLibDoc::WriteLibrary in github.com/gomoku/RenLib): children sorted by their move byte,
a record [pos, flags] per node in pre-order, 0x80 when a sibling follows, 0x40 when the node
has no child, texts ended by a zero byte and padded to an even length. Run it from this folder;
the files it writes are committed, so the tests do not need Python.
"""

HEADER = bytes([0xFF]) + b"RenLib" + bytes([0xFF])


def pos(point):
    """The move byte of `h8`-style text; None for a pass."""
    if point is None:
        return 0
    column = ord(point[0]) - ord("a") + 1
    rank = int(point[1:])
    return ((15 - rank) << 4) | column


class Node:
    def __init__(self, point, comment=b"", board_text=b"", mark=False, start=False,
                 no_move=False, old_comment=None):
        self.point = point
        self.comment = comment
        self.board_text = board_text
        self.mark = mark
        self.start = start
        self.no_move = no_move
        self.old_comment = old_comment
        self.children = []

    def add(self, *children):
        self.children.extend(children)
        self.children.sort(key=lambda c: pos(c.point))
        return self


def text(data):
    data = data + b"\0"
    if len(data) % 2:
        data += b"\0"
    return data


def record(node, sibling, no_child):
    flags = 0x80 if sibling else 0
    flags |= 0x40 if no_child else 0
    flags |= 0x10 if node.mark else 0
    flags |= 0x04 if node.start else 0
    flags |= 0x02 if node.no_move else 0
    if node.old_comment is not None:
        flags |= 0x20
    elif node.comment:
        flags |= 0x08
    if node.board_text:
        flags |= 0x01
    out = bytes([pos(node.point), flags])
    if node.board_text:
        out += bytes([0x00, 0x01])
    if node.old_comment is not None:
        # 7-bit characters, the last with its top bit set, read in pairs.
        chars = bytearray(node.old_comment)
        chars[-1] |= 0x80
        if len(chars) % 2:
            chars.append(0)
        out += bytes(chars)
    elif node.comment:
        out += text(node.comment)
    if node.board_text:
        out += text(node.board_text)
    return out


def tree(first):
    """`first` and its subtree, in pre-order; `first` itself written as RenLib writes the
    moves down to the saved branch (no line-end flag)."""
    out = record(first, False, False)
    stack = [(c, i + 1 < len(first.children)) for i, c in enumerate(first.children)][::-1]
    while stack:
        node, sibling = stack.pop()
        out += record(node, sibling, not node.children)
        stack.extend([(c, i + 1 < len(node.children))
                      for i, c in enumerate(node.children)][::-1])
    return out


def gbk():
    """Version 3.4: a root record, GBK comments, a pass, a label, a board text, marks."""
    root = Node(None, comment="测试库".encode("gbk"))
    h8 = Node("h8", start=True)
    h9 = Node("h9", comment="直指开局".encode("gbk") + b"\x08" + "花月\r\n黑先胜".encode("gbk"))
    i9 = Node("i9", comment="斜指".encode("gbk"))
    h9.add(Node("i9", mark=True).add(Node("j10", board_text=b"A")),
           Node("i8", comment=b"ok"))
    i9.add(Node("j8", board_text=b"1", no_move=True), Node("j10", mark=True))
    h8.add(h9, i9, Node(None, comment="弃权".encode("gbk")).add(Node("g7")))
    root.add(h8)
    return HEADER + bytes([3, 4]) + bytes([0xFF] * 10) + tree(root)


def shift_jis():
    """Version 3.0 as RenLib writes it (h8 the only first move, no root record): Shift-JIS."""
    h8 = Node("h8")
    h8.add(Node("h9", comment="黒番必勝".encode("shift_jis")).add(Node("i10")),
           Node("i9", comment="ひらがな".encode("shift_jis") + b"\x08" +
                "斜月".encode("shift_jis")))
    return HEADER + bytes([3, 0]) + bytes([0xFF] * 10) + tree(h8)


def headerless():
    """An old file without a header, with old-style (7-bit Swedish) comments."""
    h8 = Node("h8", old_comment=b"Sn{ll")
    h8.add(Node("g9", old_comment=b"Ok"), Node("i9"))
    return tree(h8)


if __name__ == "__main__":
    for name, make in [("synthetic-gbk.lib", gbk), ("synthetic-v30-shift-jis.lib", shift_jis),
                       ("synthetic-headerless.lib", headerless)]:
        with open(name, "wb") as f:
            f.write(make())
