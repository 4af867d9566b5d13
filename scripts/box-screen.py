#!/usr/bin/env python3
"""What the box's virtual HDMI output shows now, as a PNG: QEMU's QMP
`screendump` writes the screen as a PPM, turned into a PNG here with the
standard library alone (no image package on the host is needed).

    box-screen.py QMP_SOCKET OUT.png
    box-screen.py QMP_SOCKET OUT.png X Y W H   only that part, three times as large
                                               (small print, for tesseract)
"""
import json
import os
import socket
import struct
import sys
import tempfile
import zlib


def qmp(sock_path, command, arguments=None):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(sock_path)
        reader = sock.makefile("r")
        json.loads(reader.readline())  # the greeting
        for message in ({"execute": "qmp_capabilities"}, {"execute": command, "arguments": arguments or {}}):
            sock.sendall((json.dumps(message) + "\n").encode())
            while True:
                answer = json.loads(reader.readline())
                if "event" in answer:
                    continue
                if "error" in answer:
                    raise SystemExit("box: QMP %s failed: %s" % (message["execute"], answer["error"]))
                break


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    # P6, width, height, maxval, one whitespace, then the pixels; comments are not written by QEMU.
    fields = []
    at = 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        start = at
        while not data[at:at + 1].isspace():
            at += 1
        fields.append(data[start:at])
    at += 1
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise SystemExit("box: not an 8-bit PPM from QEMU")
    return int(fields[1]), int(fields[2]), data[at:]


def write_png(path, width, height, rgb):
    stride = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride:(y + 1) * stride] for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def crop_scaled(width, height, rgb, x, y, w, h, scale=3):
    """The part (x, y, w, h) of the picture, each pixel made scale x scale (nearest neighbour)."""
    x, y = max(0, min(x, width - 1)), max(0, min(y, height - 1))
    w, h = min(w, width - x), min(h, height - y)
    rows = []
    for row in range(y, y + h):
        line = rgb[(row * width + x) * 3:(row * width + x + w) * 3]
        wide = b"".join(line[i:i + 3] * scale for i in range(0, len(line), 3))
        rows.extend([wide] * scale)
    return w * scale, h * scale, b"".join(rows)


def main():
    if len(sys.argv) not in (3, 7):
        raise SystemExit(__doc__)
    sock_path, out = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        ppm = os.path.join(tmp, "screen.ppm")
        qmp(sock_path, "screendump", {"filename": ppm})
        width, height, rgb = read_ppm(ppm)
    if len(sys.argv) == 7:
        width, height, rgb = crop_scaled(width, height, rgb, *(int(v) for v in sys.argv[3:7]))
    write_png(out, width, height, rgb)
    print("%s %dx%d" % (out, width, height))


if __name__ == "__main__":
    main()
