#!/usr/bin/env python3
"""Generate ABI dump programs from a PJRT C API header.

Usage: gen_abi_dump.py HEADER OUT_DIR

Parses HEADER (upstream pjrt_c_api.h) for every struct (with every field,
including anonymous-union members and PJRT_Api slots), every enum constant,
every *_STRUCT_SIZE constant and every typedef name, and writes:
  OUT_DIR/inventory.txt   parsed facts (names and order only)
  OUT_DIR/dump.cc         C++ program printing sizes/offsets/values/types
  OUT_DIR/dump.c          C11 program printing sizes/offsets/values
The dump programs include "pjrt_c_api.h" so they can be compiled against any
header with -I.
"""
import re
import sys
from pathlib import Path


def strip_comments(src):
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if c == '"':
            j = i + 1
            while src[j] != '"':
                j += 2 if src[j] == '\\' else 1
            out.append(src[i:j + 1])
            i = j + 1
        elif src.startswith('//', i):
            j = src.find('\n', i)
            i = n if j < 0 else j
        elif src.startswith('/*', i):
            j = src.find('*/', i + 2)
            out.append(' ')
            i = j + 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def drop_preprocessor(src):
    # Remove preprocessor lines (with continuations); keep the rest.
    lines, out, cont = src.split('\n'), [], False
    for ln in lines:
        if cont or ln.lstrip().startswith('#'):
            cont = ln.rstrip().endswith('\\')
            out.append('')
            continue
        out.append(ln)
    return '\n'.join(out)


def match_brace(s, i):
    depth = 0
    for j in range(i, len(s)):
        if s[j] == '{':
            depth += 1
        elif s[j] == '}':
            depth -= 1
            if depth == 0:
                return j
    raise ValueError('unbalanced')


def split_decls(body):
    """Split a struct body into member declarations (depth-0 ';')."""
    decls, depth, cur = [], 0, []
    for ch in body:
        if ch in '{(':
            depth += 1
        elif ch in '})':
            depth -= 1
        if ch == ';' and depth == 0:
            decls.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if ''.join(cur).strip():
        decls.append(''.join(cur).strip())
    return [d for d in decls if d]


def member_names(decl):
    m = re.match(r'^union\s*\{(.*)\}\s*$', decl, re.S)
    if m:  # anonymous union: its members are members of the outer struct
        names = []
        for d in split_decls(m.group(1)):
            names += member_names(d)
        return names
    m = re.match(r'^_PJRT_API_STRUCT_FIELD\s*\(\s*(\w+)\s*\)$', decl)
    if m:
        return [m.group(1)]
    m = re.search(r'\(\s*\*\s*(\w+)\s*\)\s*\(', decl)
    if m:
        return [m.group(1)]
    ids = re.findall(r'[A-Za-z_]\w*', decl)
    return [ids[-1]]


def parse(path):
    raw = Path(path).read_text()
    src = drop_preprocessor(strip_comments(raw))
    structs = []  # (name, [fields])
    for m in re.finditer(r'\bstruct\s+(\w+)\s*\{', src):
        j = match_brace(src, m.end() - 1)
        body = src[m.end():j]
        fields = []
        for d in split_decls(body):
            fields += member_names(d)
        structs.append((m.group(1), fields))
    enums = []  # (typedef name or None, [constants])
    for m in re.finditer(r'\benum\s*\{', src):
        j = match_brace(src, m.end() - 1)
        body = src[m.end():j]
        tail = re.match(r'\s*(\w*)\s*;', src[j + 1:])
        name = tail.group(1) if tail and tail.group(1) else None
        consts = [re.match(r'\s*(\w+)', e).group(1)
                  for e in body.split(',') if e.strip()]
        enums.append((name, consts))
    traits = re.findall(
        r'PJRT_DEFINE_STRUCT_TRAITS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)', src)
    size_consts = [f'{n}_STRUCT_SIZE' for n, _ in traits]
    for name, consts in enums:
        if name is None:
            size_consts += [c for c in consts if c.endswith('_STRUCT_SIZE')]
    typedefs = set()
    for m in re.finditer(r'\btypedef\b([^;{]*?(?:\{)?)', src):
        pass
    # Collect typedef names from each top-level 'typedef ... ;' statement.
    i = 0
    while True:
        k = src.find('typedef', i)
        if k < 0:
            break
        depth, j = 0, k
        while True:
            ch = src[j]
            if ch in '{(':
                depth += 1
            elif ch in '})':
                depth -= 1
            elif ch == ';' and depth == 0:
                break
            j += 1
        stmt = src[k:j]
        i = j + 1
        if '{' in stmt:  # typedef struct/enum {...} NAME
            name = re.findall(r'\}\s*(\w+)\s*$', stmt)
            if name:
                typedefs.add(name[0])
            continue
        m = re.search(r'\(\s*\*\s*(\w+)\s*\)\s*\(', stmt)
        if m:
            typedefs.add(m.group(1))
            continue
        m = re.search(r'(\w+)\s*\(', stmt)
        if m:
            typedefs.add(m.group(1))
            continue
        typedefs.add(re.findall(r'\w+', stmt)[-1])
    for n, _ in traits:
        typedefs.add(n)
    return structs, enums, sorted(set(size_consts)), sorted(typedefs), traits


def main():
    header, out = sys.argv[1], Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    structs, enums, size_consts, typedefs, traits = parse(header)

    inv = []
    for s, fs in structs:
        inv.append(f'struct {s} ' + ' '.join(fs))
    for n, cs in enums:
        if n:
            inv.append(f'enum {n} ' + ' '.join(cs))
    for c in size_consts:
        inv.append(f'sizeconst {c}')
    for t in typedefs:
        inv.append(f'typedef {t}')
    for n, last in traits:
        inv.append(f'traits {n} {last}')
    (out / 'inventory.txt').write_text('\n'.join(inv) + '\n')

    def body(cxx):
        L = []
        P = 'std::printf' if cxx else 'printf'
        al = 'alignof' if cxx else '_Alignof'
        L.append(f'  {P}("PJRT_API_MAJOR %d\\n", PJRT_API_MAJOR);')
        L.append(f'  {P}("PJRT_API_MINOR %d\\n", PJRT_API_MINOR);')
        for mac in ('PJRT_STRUCT_SIZE', 'PJRT_DEFINE_STRUCT_TRAITS',
                    'PJRT_CHECK_STRUCT_SIZE'):
            L.append(f'#ifdef {mac}\n  {P}("macro {mac} defined\\n");\n'
                     f'#else\n  {P}("macro {mac} MISSING\\n");\n#endif')
        for s, fs in structs:
            L.append(f'  {P}("sizeof {s} %zu align %zu\\n", sizeof({s}), '
                     f'(size_t){al}({s}));')
            for f in fs:
                L.append(
                    f'  {P}("field {s}.{f} off %zu size %zu\\n", '
                    f'offsetof({s}, {f}), sizeof((({s}*)0)->{f}));')
                if cxx:
                    L.append(
                        f'  {P}("ftype {s}.{f} %s\\n", '
                        f'typeid(decltype({s}::{f})).name());')
        for n, cs in enums:
            if not n:
                continue
            L.append(f'  {P}("enumsize {n} %zu\\n", sizeof({n}));')
            if cxx:
                L.append(f'  {P}("enumunderlying {n} %s\\n", '
                         f'typeid(std::underlying_type_t<{n}>).name());')
            for c in cs:
                L.append(f'  {P}("enum {n}.{c} %lld\\n", (long long){c});')
        for c in size_consts:
            L.append(f'  {P}("sizeconst {c} %lld\\n", (long long){c});')
        if cxx:
            for t in typedefs:
                L.append(f'  {P}("typedef {t} %s\\n", typeid({t}*).name());')
        return '\n'.join(L)

    (out / 'dump.cc').write_text(
        '#include <cstddef>\n#include <cstdio>\n#include <type_traits>\n'
        '#include <typeinfo>\n#include "pjrt_c_api.h"\n'
        'int main() {\n' + body(True) + '\n  return 0;\n}\n')
    (out / 'dump.c').write_text(
        '#include <stddef.h>\n#include <stdio.h>\n#include "pjrt_c_api.h"\n'
        'int main(void) {\n' + body(False) + '\n  return 0;\n}\n')
    nf = sum(len(fs) for _, fs in structs)
    ne = sum(len(cs) for n, cs in enums if n)
    api = dict(structs)['PJRT_Api']
    print(f'structs={len(structs)} fields={nf} enum_types='
          f'{sum(1 for n, _ in enums if n)} enum_constants={ne} '
          f'struct_size_consts={len(size_consts)} typedefs={len(typedefs)} '
          f'api_slots={len(api) - 3} (+3 header fields)')


if __name__ == '__main__':
    main()
