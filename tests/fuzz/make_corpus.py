#!/usr/bin/env python3
"""Writes the checker's seed corpus and its list of bad inputs.

    python3 tests/fuzz/make_corpus.py     # rewrites tests/fuzz/corpus/ and bad_inputs.json

Every .npy here is written byte by byte from the format's specification
(numpy.lib.format: magic, version, header length, a padded Python dict literal,
the raw values), not by numpy, which need not be installed. Every .npz is
written by Python's own zipfile module the way numpy.savez does (one stored
"<name>.npy" member per array, force_zip64=True on each member), so the C++
zip reader is checked against an independent writer. Deterministic: fixed
values and zip timestamps, so a rerun rewrites the same bytes.

corpus/<target>/ seeds each fuzz target (tests/fuzz/fuzz_<target>.cpp);
bad_inputs.json lists each bad input of issue #6 with the files to give the
checker and a piece of the message it must answer with. The CLI, wasm and
browser tests (tests/node/check_*.test.mjs, tests/browser/check.test.mjs)
run every entry.
"""
import io
import json
import math
import os
import struct
import warnings
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
STAMP = (1980, 1, 1, 0, 0, 0)


def npy(values, shape, descr="<f4", fortran=False, version=(1, 0), header=None):
    """The bytes of a .npy file. `values` in C order; written in F order if asked."""
    if header is None:
        dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
        order = "True" if fortran else "False"
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (descr, order, dims)
    hb = header.encode("latin1")
    len_fmt = "<H" if version[0] == 1 else "<I"
    prefix = 6 + 2 + struct.calcsize(len_fmt)
    pad = (64 - (prefix + len(hb) + 1) % 64) % 64
    hb = hb + b" " * pad + b"\n"
    out = b"\x93NUMPY" + bytes(version) + struct.pack(len_fmt, len(hb)) + hb
    if values is None:
        return out
    if fortran:
        values = to_fortran(values, shape)
    kind, size = descr[1], int(descr[2:])
    fmt = {("f", 4): "f", ("f", 8): "d", ("f", 2): "e", ("i", 4): "i", ("i", 8): "q",
           ("c", 8): None, ("u", 1): "B"}.get((kind, size))
    endian = ">" if descr[0] == ">" else "<"
    if kind == "c":
        return out + b"".join(struct.pack(endian + "ff", v, 0.0) for v in values)
    return out + b"".join(struct.pack(endian + fmt, v) for v in values)


def to_fortran(values, shape):
    """C-order values rearranged so that the first index varies fastest."""
    n = len(values)
    out = [0.0] * n
    for flat in range(n):
        idx, rest = [], flat
        for d in reversed(shape):
            idx.append(rest % d)
            rest //= d
        idx.reverse()  # C-order index of `flat`
        f, stride = 0, 1
        for i, d in enumerate(shape):
            f += idx[i] * stride
            stride *= d
        out[f] = values[flat]
    return out


def npz(members, compression=zipfile.ZIP_STORED, suffix=".npy"):
    """A zip as numpy.savez writes it: a '<name>.npy' member per array (suffix "": names as given)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=compression, allowZip64=True) as z, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of a duplicate name: some cases want one
        for name, data in members:
            info = zipfile.ZipInfo(name + suffix, date_time=STAMP)
            info.compress_type = compression
            with z.open(info, "w", force_zip64=True) as f:
                f.write(data)
    return buf.getvalue()


def set_method(zip_bytes, method):
    """Rewrites every member's compression method (local and central headers)."""
    b = bytearray(zip_bytes)
    i = 0
    while True:
        i = b.find(b"PK\x03\x04", i)
        if i < 0:
            break
        struct.pack_into("<H", b, i + 8, method)
        i += 4
    i = 0
    while True:
        i = b.find(b"PK\x01\x02", i)
        if i < 0:
            break
        struct.pack_into("<H", b, i + 10, method)
        i += 4
    return bytes(b)


def vals(n, seed=1.0):
    """n fixed values of mean near 0, spread near 1 (no randomness: reproducible)."""
    return [round(math.sin(seed * (i + 1) * 1.37) * 1.7, 6) for i in range(n)]


def csv_rows(rows, tag=None):
    return "".join((tag + "," if tag else "") + ",".join(repr(v) for v in r) + "\n" for r in rows)


def main():
    files = {}

    def put(rel, data):
        files[rel] = data if isinstance(data, bytes) else data.encode()

    # -- Good inputs: q and k [2, 5, 4] (heads, n, d_k), and one-head [5, 4].
    q3, k3 = vals(40, 1.0), vals(40, 2.3)
    q2, k2 = vals(20, 0.7), vals(20, 1.9)
    put("npy/q.npy", npy(q3, (2, 5, 4)))
    put("npy/k.npy", npy(k3, (2, 5, 4)))
    put("npy/q_2d.npy", npy(q2, (5, 4)))
    put("npy/k_2d_big_endian_f8.npy", npy(k2, (5, 4), descr=">f8"))
    put("npy/q_fortran.npy", npy(q3, (2, 5, 4), fortran=True))
    put("npy/q_f8_v2.npy", npy(q3, (2, 5, 4), descr="<f8", version=(2, 0)))
    put("npz/good.npz", npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4)))]))
    put("npz/good_2d_extra_member.npz",
        npz([("q", npy(q2, (5, 4))), ("v", npy(q2, (5, 4))), ("k", npy(k2, (5, 4)))]))
    # A batch of 3 sequences, as the training lab exports one: each of 3 queries
    # attends to the 5 keys of its own sequence; "sequences" says how many.
    qs, ks = vals(24, 3.1), vals(120, 0.9)
    put("npz/good_sequences.npz", npz([("q", npy(qs, (2, 3, 4))), ("k", npy(ks, (2, 15, 4))),
                                       ("sequences", npy([3.0], (1, 1)))]))
    rows_q = [q2[i * 4:(i + 1) * 4] for i in range(5)]
    rows_k = [k2[i * 4:(i + 1) * 4] for i in range(5)]
    put("csv/good_tagged.csv", "# q and k, one vector a row\n" + csv_rows(rows_q, "q") + csv_rows(rows_k, "k"))
    put("csv/q_plain.csv", csv_rows(rows_q))
    put("csv/k_spaces.csv", "".join(" ".join(repr(v) for v in r) + "\r\n" for r in rows_k))
    put("json/good.json", json.dumps({"q": [rows_q], "k": [rows_k], "note": {"from": "a test", "ok": True}}))
    put("json/q_bare.json", json.dumps(rows_q))

    # -- Bad inputs of issue #6, each with the files the checker is given.
    bad = []

    def case(name, issue, rel_files, expect, data=None):
        if data is not None:
            put(rel_files[0], data)
        bad.append({"name": name, "issue": issue, "files": rel_files, "expect": expect})

    good_q = npy(q3, (2, 5, 4))
    k_file = "npy/k.npy"
    case("npy-truncated-header", "truncated header", ["npy/bad_truncated_header.npy", k_file],
         "truncated header", good_q[:40])
    case("npy-truncated-prefix", "truncated header", ["npy/bad_truncated_prefix.npy", k_file],
         "truncated header", good_q[:9])
    case("npy-truncated-data", "truncated data", ["npy/bad_truncated_data.npy", k_file],
         "but the file holds 120 bytes of data", good_q[:-40])
    case("npy-wrong-magic", "wrong magic", ["npy/bad_magic.npy", k_file],
         "wrong magic", b"\x93NUMPX" + good_q[6:])
    case("npy-int32", "unsupported dtype: int", ["npy/bad_dtype_int32.npy", k_file],
         "dtype '<i4' (signed integer) is not supported", npy([1] * 40, (2, 5, 4), descr="<i4"))
    case("npy-float16", "unsupported dtype: float16", ["npy/bad_dtype_float16.npy", k_file],
         "dtype '<f2' (16-bit float16) is not supported", npy([0.5] * 40, (2, 5, 4), descr="<f2"))
    case("npy-complex64", "unsupported dtype: complex", ["npy/bad_dtype_complex64.npy", k_file],
         "dtype '<c8' (complex) is not supported", npy([0.5] * 40, (2, 5, 4), descr="<c8"))
    case("npy-object", "unsupported dtype: object", ["npy/bad_dtype_object.npy", k_file],
         "dtype '|O' (Python object) is not supported",
         npy(None, (2, 5, 4), descr="|O") + b"\x80\x02pickled objects would follow")
    case("npy-structured", "unsupported dtype: structured", ["npy/bad_dtype_structured.npy", k_file],
         "structured",
         npy(None, None, header="{'descr': [('a', '<f4'), ('b', '<f4')], 'fortran_order': False, 'shape': (2, 3), }")
         + b"\0" * 48)
    case("npy-shape-mismatch", "shape does not match the data length", ["npy/bad_shape_mismatch.npy", k_file],
         "header says shape (2, 5, 5) = 50 values (200 bytes of <f4) but the file holds 160 bytes of data",
         npy(None, (2, 5, 5)) + npy(q3, (2, 5, 4))[len(npy(None, (2, 5, 4))):])
    case("npy-4d", "more than 3 dimensions", ["npy/bad_4d.npy", k_file],
         "has 4 dimensions", npy(q3, (1, 2, 5, 4)))
    case("npy-1d", "fewer than 2 dimensions", ["npy/bad_1d.npy", k_file],
         "has 1 dimension", npy(q3, (40,)))
    case("npy-nan", "NaN value", ["npy/bad_nan.npy", k_file],
         "the value at (0, 1, 2) is nan", npy(q3[:6] + [float("nan")] + q3[7:], (2, 5, 4)))
    case("npy-inf", "infinite value", ["npy/bad_inf.npy", k_file],
         "the value at (1, 4, 3) is -inf", npy(q3[:39] + [float("-inf")], (2, 5, 4)))
    case("npy-f8-out-of-float-range", "value beyond float32", ["npy/bad_f8_huge.npy", k_file],
         "outside the float32 range", npy([1e300] + q3[1:], (2, 5, 4), descr="<f8"))
    case("npy-empty", "empty array", ["npy/bad_empty.npy", k_file],
         "shape (0, 4) is empty", npy([], (0, 4)))
    case("npy-2gb", "2 GB declared size", ["npy/bad_2gb_declared.npy", k_file],
         "shape (32768, 16384) holds 536870912 values, more than the limit of 4194304",
         npy(q3, (32768, 16384)))
    case("npy-huge-dims", "dimensions that overflow 64 bits", ["npy/bad_huge_dims.npy", k_file],
         "more than the limit of 4194304",
         npy(q3, (18446744073709551615, 18446744073709551615, 3)))
    case("npy-version", "unknown format version", ["npy/bad_version.npy", k_file],
         "format version 9.0 is not supported", b"\x93NUMPY\x09\x00" + good_q[8:])
    case("npy-bad-header", "malformed header", ["npy/bad_header_syntax.npy", k_file],
         "malformed header",
         npy(q3, None, header="{'descr': '<f4', 'fortran_order': False 'shape': (2, 5, 4), }"))
    case("npy-alone", "one .npy given alone", ["npy/q.npy"], "a .npy file holds one array")
    case("qk-shape-mismatch", "mismatched q/k shapes", ["npy/q.npy", "npy/q_2d.npy"],
         "q has shape (2, 5, 4) but k has shape (5, 4): heads and d_k must match")
    case("npz-shape-mismatch", "mismatched q/k shapes", ["npz/bad_qk_mismatch.npz"],
         "q has shape (2, 5, 4) but k has shape (2, 5, 2): heads and d_k must match",
         npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3[:20], (2, 5, 2)))]))
    case("npz-missing-member", "zip with a missing member", ["npz/bad_missing_k.npz"],
         "no array named 'k' (the archive holds q, v)",
         npz([("q", npy(q3, (2, 5, 4))), ("v", npy(k3, (2, 5, 4)))]))
    case("npz-deflate", "compressed .npz (savez_compressed)", ["npz/bad_compressed.npz"],
         "a compressed .npz (numpy.savez_compressed) is not supported, save with numpy.savez",
         npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4)))], zipfile.ZIP_DEFLATED))
    case("npz-unknown-method", "zip member compressed by an unknown method", ["npz/bad_unknown_method.npz"],
         "is compressed by an unknown method (99)",
         set_method(npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4)))]), 99))
    good_npz = npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4)))])
    case("npz-truncated", "truncated zip", ["npz/bad_truncated.npz"],
         "truncated: no end-of-central-directory record", good_npz[:200])
    crc_bad = bytearray(good_npz)
    crc_bad[good_npz.find(b"\x93NUMPY") + 100] ^= 0x40  # one bit of q's data
    case("npz-crc", "damaged zip member", ["npz/bad_crc.npz"], "fails its CRC-32 check", bytes(crc_bad))
    case("npz-wrong-magic", "wrong magic", ["npz/bad_magic.npz"], "wrong magic", b"XK" + good_npz[2:],)
    case("npz-member-int64", "unsupported dtype inside an .npz", ["npz/bad_member_int64.npz"],
         "npz member 'q.npy': dtype '<i8' (signed integer) is not supported",
         npz([("q", npy([1] * 40, (2, 5, 4), descr="<i8")), ("k", npy(k3, (2, 5, 4)))]))
    case("npz-member-nan", "NaN inside an .npz", ["npz/bad_member_nan.npz"],
         "npz member 'k.npy': the value at (0, 0, 0) is nan",
         npz([("q", npy(q3, (2, 5, 4))), ("k", npy([float("nan")] + k3[1:], (2, 5, 4)))]))
    case("npz-sequences-uneven", "sequences that do not divide q and k", ["npz/bad_sequences_uneven.npz"],
         "2 sequences do not divide q's 3 rows and k's 15 rows into equal blocks",
         npz([("q", npy(qs, (2, 3, 4))), ("k", npy(ks, (2, 15, 4))), ("sequences", npy([2.0], (1, 1)))]))
    case("npz-sequences-fraction", "a bad sequences array", ["npz/bad_sequences_fraction.npz"],
         "npz: the array 'sequences' must hold one integer in [1, 4096]",
         npz([("q", npy(qs, (2, 3, 4))), ("k", npy(ks, (2, 15, 4))), ("sequences", npy([2.5], (1, 1)))]))
    case("npz-divisor-zero", "a stored divisor of 0", ["npz/bad_divisor_zero.npz"],
         "npz: the array 'divisor' must hold one number in [1e-30, 1e+12]",
         npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4))), ("divisor", npy([0.0], (1, 1)))]))
    case("npz-divisor-two", "a stored divisor of two numbers", ["npz/bad_divisor_two.npz"],
         "npz: the array 'divisor' must hold one number in [1e-30, 1e+12]",
         npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4))), ("divisor", npy([8.0, 1.0], (1, 2)))]))
    case("npz-one-key", "softmax over one key", ["npz/bad_one_key.npz"],
         "k has 1 row", npz([("q", npy(q2, (5, 4))), ("k", npy(k2[:4], (1, 4)))]))
    # Issue 14, class 7: names and fields from the file are echoed escaped, on one line.
    case("npz-member-name-newline", "a member name with a newline (one stderr line)",
         ["npz/bad_member_name_newline.npz"], "npz: no array named 'q' (the archive holds q\\nx, k\\x1b[0m)",
         npz([("q\nx", npy(q3, (2, 5, 4))), ("k\x1b[0m", npy(k3, (2, 5, 4)))]))
    case("csv-tag-escape", "a terminal escape where a row's name should be (one stderr line)",
         ["csv/bad_tag_escape.csv"], "csv: line 1 starts with '\\x1b[2Jq', not 'q' or 'k'",
         "\x1b[2Jq,1,2\nk,1,2\n")
    # Issue 14, class 8: an array held twice. NumPy reads the last copy, a
    # first-match reader the first: refused, naming the member.
    case("npz-duplicate-q", "q held twice in one .npz", ["npz/bad_duplicate_q.npz"],
         "npz: the archive holds member 'q.npy' twice: NumPy would read the last copy",
         npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4))), ("q", npy(k3, (2, 5, 4)))]))
    case("npz-duplicate-k", "k held twice in one .npz", ["npz/bad_duplicate_k.npz"],
         "npz: the archive holds member 'k.npy' twice",
         npz([("q", npy(q3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4))), ("k", npy(k3, (2, 5, 4)))]))
    case("npz-q-and-q-npy", "q held as 'q.npy' and as 'q' in one .npz", ["npz/bad_q_and_q_npy.npz"],
         "npz: the archive holds array 'q' twice, as members 'q.npy' and 'q'",
         npz([("q.npy", npy(q3, (2, 5, 4))), ("k.npy", npy(k3, (2, 5, 4))), ("q", npy(k3, (2, 5, 4)))], suffix=""))
    case("csv-ragged", "shape does not match (CSV)", ["csv/bad_ragged.csv"],
         "csv: line 3 has 3 values, but the first q row (line 1) has 4",
         "q,1,2,3,4\nq,5,6,7,8\nq,1,2,3\nk,1,2,3,4\nk,1,2,3,4\n")
    case("csv-not-number", "not a number (CSV)", ["csv/bad_not_number.csv"],
         "csv: line 2, field 3 ('abc') is not a number", "q,1,2,3\nq,1,abc,3\nk,1,2,3\nk,4,5,6\n")
    case("csv-nan", "NaN value (CSV)", ["csv/bad_nan.csv"],
         "csv: line 4, field 2 is nan", "q,1,2\nq,3,4\nk,1,2\nk,nan,4\n")
    case("csv-inf", "infinite value (CSV)", ["csv/bad_inf.csv"],
         "csv: line 1, field 3 is inf", "q,1,inf\nq,3,4\nk,1,2\nk,3,4\n")
    case("csv-empty", "empty array (CSV)", ["csv/bad_empty.csv"], "no row starts with 'q'", "# nothing here\n\n")
    case("csv-untagged", "one plain CSV given alone", ["csv/q_plain.csv"], "starts with a number")
    case("csv-missing-k", "missing k (CSV)", ["csv/bad_missing_k.csv"], "no row starts with 'k'", "q,1,2\nq,3,4\n")
    case("json-syntax", "malformed JSON", ["json/bad_syntax.json"],
         "json: line 1, column 18: expected ']', found '}'", '{"q": [[1, 2], [3}')
    case("json-truncated", "truncated JSON", ["json/bad_truncated.json"],
         "the text ends early", '{"q": [[1, 2], [3, 4]], "k": [[1, 2], [3,')
    case("json-ragged", "shape does not match (JSON)", ["json/bad_ragged.json"],
         "q[1] has 1 elements, but q[0] has 2", '{"q": [[1, 2], [3]], "k": [[1, 2], [3, 4]]}')
    case("json-4d", "more than 3 dimensions (JSON)", ["json/bad_4d.json"],
         "shape (1, 1, 1, 1) has 4 dimensions", '{"q": [[[[1]]]], "k": [[1, 2], [3, 4]]}')
    case("json-nan", "NaN value (JSON)", ["json/bad_nan.json"],
         "q[0][1] is NaN, not a finite number", '{"q": [[1, NaN], [3, 4]], "k": [[1, 2], [3, 4]]}')
    case("json-infinity", "infinite value (JSON)", ["json/bad_infinity.json"],
         "k[0][0] is -Infinity, not a finite number", '{"q": [[1, 2], [3, 4]], "k": [[-Infinity, 2], [3, 4]]}')
    case("json-huge", "value beyond float32 (JSON)", ["json/bad_huge.json"],
         "q[0][1] is 1e39, outside the float32 range", '{"q": [[1, 1e39], [3, 4]], "k": [[1, 2], [3, 4]]}')
    case("json-empty", "empty array (JSON)", ["json/bad_empty.json"], "q is empty", '{"q": [], "k": [[1, 2]]}')
    case("json-missing-k", "missing k (JSON)", ["json/bad_missing_k.json"],
         "the object has no \"k\"", '{"q": [[1, 2], [3, 4]], "v": [[1, 2]]}')
    case("json-deep", "deep nesting (JSON)", ["json/bad_deep.json"], "nested more than 64 levels deep",
         '{"x": ' + "[" * 200 + "]" * 200 + ', "q": [[1]], "k": [[1]]}')

    # Issue 14, class 6: one number grammar, NUL bytes, names in messages.
    case("json-past-float-max", "a value that rounds past the float maximum (JSON)", ["json/bad_past_float_max.json"],
         "q[0][1] is 3.5e38, outside the float32 range",
         '{"q": [[1, 3.5e38], [3, 4]], "k": [[1, 2], [3, 4]], "note": 1e400}')
    case("json-nul", "a NUL byte (JSON)", ["json/bad_nul.json"], "json: line 1, column 39 holds a NUL byte",
         '{"q": [[1, 2], [3, 4]], "k": [[1, 2]]}\0, "k": [[5, 6]]}')
    case("csv-nul", "a NUL byte (CSV)", ["csv/bad_nul.csv"], "csv: line 3, column 4 holds a NUL byte",
         "q,1,2\nq,3,4\nk,1\0,2\nk,3,4\n")
    case("csv-hex", "a hex float (CSV)", ["csv/bad_hex.csv"], "csv: line 2, field 2 ('0x1p1') is not a number",
         "q,1,2\nq,0x1p1,4\nk,1,2\nk,3,4\n")
    case("npz-sequences-int64-rows", "an unrelated int64 'sequences' array", ["npz/bad_sequences_rows.npz"],
         "npz: the array 'sequences' must hold one integer in [1, 4096]",
         npz([("q", npy(qs, (2, 3, 4))), ("k", npy(ks, (2, 15, 4))), ("sequences", npy([7] * 6, (2, 3), descr="<i8"))]))
    put("csv/good_bom.csv", "\ufeff" + csv_rows(rows_q, "q") + csv_rows(rows_k, "k"))
    # Members the checker does not use, as Python's json.dumps writes them (NaN, -Infinity), and numbers
    # past any float: skipped unchecked. q holds the float maximum as NumPy prints it.
    put("json/good_skipped_nan.json",
        json.dumps({"q": [[3.4028235e38] + r[1:] for r in rows_q], "k": [[0] + r[1:] for r in rows_k],
                    "loss": float("nan"),
                    "best": float("-inf"), "count": 1e40})[:-1] + ', "huge": [1e400, -1e999]}')
    put("npz/good_sequences_int64.npz",
        npz([("q", npy(qs, (2, 3, 4))), ("k", npy(ks, (2, 15, 4))), ("sequences", npy([3], (), descr="<i8"))]))

    # -- Seeds for `attnlab attention`'s input (fuzz_attention).
    put("attention/good.json", json.dumps({"q": rows_q, "k": rows_k, "v": rows_k, "divisor": "sqrt"}))
    put("attention/good_number_divisor.json", '{"q": [[1, 0.5]], "k": [[1, 2], [3, 4]], "v": [[1], [2]], "divisor": 2.5}')
    put("attention/skipped_members.json",
        '{"note": {"a": [[1], {"q": 2}]}, "q": [[1]], "k": [[1], [2]], "v": [[3], [5]], "extra": [true, null]}')
    put("attention/bad_ragged.json", '{"q": [[1, 2], [3]], "k": [[1, 2]], "v": [[1]]}')
    put("attention/bad_twice.json", '{"q": [[1]], "q": [[2]], "k": [[1]], "v": [[1]]}')
    put("attention/bad_deep.json", '{"q": ' + "[" * 200 + "]" * 200 + "}")
    put("attention/bad_float_range.json", '{"q": [[1e39]], "k": [[1]], "v": [[1]]}')
    put("attention/bad_output_size.json", json.dumps({"q": [[0]] * 300, "k": [[0]], "v": [[0] * 60000]}))
    put("attention/overflow_sum.json", json.dumps({"q": [[0]], "k": [[0]] * 10, "v": [[3.4028234663852886e38]] * 10}))

    # -- Seeds for the CLI's argument handling: one argument a line.
    args = {
        "single.txt": ["a.npz"],
        "pair.txt": ["a.npy", "b.npy", "--divisor", "dk"],
        "names.txt": ["a.npz", "--q", "query", "--k", "key", "--format", "npz"],
        "sequences.txt": ["a.npy", "b.npy", "--sequences", "2"],
        "divisor_number.txt": ["a.json", "--divisor", "2.5"],
        "csv.txt": ["a.csv", "--divisor", "1"],
        "bad_divisor.txt": ["a.npz", "--divisor", "-3"],
        "bad_three_files.txt": ["a.npz", "b.npz", "c.npz"],
        "bad_option.txt": ["a.npz", "--bogus", "1"],
        "bad_twice.txt": ["a.npz", "--q", "x", "--q", "y"],
        "bad_missing_value.txt": ["a.npz", "--divisor"],
        "bad_format.txt": ["a.npz", "--format", "xls"],
    }
    for name, argv in args.items():
        put("check_args/" + name, "\n".join(argv))

    # -- Seeds for the other commands' arguments (fuzz_cli_args): the command, then argv.
    cli = {
        "softmax.txt": ["softmax", "--scores", "14,10,12", "--divisor", "sqrt", "--dk", "64"],
        "softmax_extreme.txt": ["softmax", "--scores", "1e308,0,-1e308", "--divisor", "1e-30"],
        "softmax_bad_dk.txt": ["softmax", "--scores", "1,2", "--divisor", "8", "--dk", "4"],
        "variance.txt": ["variance", "--dk", "16", "--samples", "200", "--rho", "0.5", "--sigma-q", "2", "--bins", "8"],
        "variance_bad.txt": ["variance", "--dk", "0", "--divisor", "dk"],
        "train.txt": ["train", "--dk", "8", "--heads", "1", "--dmodel", "8", "--steps", "2", "--eval", "8", "--format", "csv"],
        "train_qknorm.txt": ["train", "--divisor", "qknorm", "--optimizer", "sgd", "--lr", "10", "--steps", "2", "--dk", "4"],
        "sweep.txt": ["sweep", "--dks", "4,8", "--divisors", "sqrt,1", "--optimizers", "adam", "--steps", "2", "--eval", "8"],
        "sweep_bad_lr.txt": ["sweep", "--optimizers", "sgd", "--lr-adam", "0.01"],
        "sample_qk.txt": ["sample-qk", "--kind", "learned", "--heads", "2", "--n", "8", "--dk", "8", "--out", "x.npz"],
        "sample_qk_lab.txt": ["sample-qk", "--source", "lab", "--kind", "saturated", "--steps", "1", "--out", "x.npz"],
        "sample_qk_bad.txt": ["sample-qk", "--source", "lab", "--heads", "2", "--out", "x.npz"],
    }
    for name, argv in cli.items():
        put("cli_args/" + name, "\n".join(argv))

    for rel in ("npy", "npz", "csv", "json", "check_args", "attention", "cli_args"):
        d = os.path.join(CORPUS, rel)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
    for rel, data in sorted(files.items()):
        with open(os.path.join(CORPUS, rel), "wb") as f:
            f.write(data)
    with open(os.path.join(HERE, "bad_inputs.json"), "w") as f:
        json.dump(bad, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(files)} corpus files and {len(bad)} bad inputs")


if __name__ == "__main__":
    main()
