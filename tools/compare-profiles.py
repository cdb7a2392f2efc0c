#!/usr/bin/env python3
"""Compare the profiles of two conversions, for a change that must not alter what users see.

    tools/convert-fixtures.sh BINARY OUT_DIR        # once with the old binary, once with the new
    tools/compare-profiles.py OLD_DIR NEW_DIR       # or two .json/.json.gz files

Files equal byte for byte pass. Profiles (.json, .json.gz) are compared by meaning: string-table
indexes are resolved to their strings (the table's order is free), meta.markerSchema is a set
(a schema of a type without markers may be missing), and each difference names the first key
that differs. Exit status 0: no difference; 1: differences (listed); 2: bad arguments.
"""
import gzip
import json
import os
import sys

STRING_COLUMNS = {'funcTable': ['name', 'fileName'], 'resourceTable': ['name', 'host'],
                  'markers': ['name'], 'nativeSymbols': ['name']}
STRING_FORMATS = ('unique-string', 'flow-id', 'terminating-flow-id')


def load(path):
    data = open(path, 'rb').read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return data


def canonical(profile):
    strings = profile['shared'].pop('stringArray')
    schemas = {s['name']: s for s in profile['meta'].pop('markerSchema')}
    used = set()
    for thread in profile.get('threads', []):
        for table, columns in STRING_COLUMNS.items():
            t = thread.get(table) or {}
            for c in columns:
                if c in t:
                    t[c] = [strings[i] if isinstance(i, int) and i >= 0 else i for i in t[c]]
        for d in thread['markers']['data']:
            if not isinstance(d, dict):
                continue
            used.add(d.get('type'))
            for f in schemas.get(d.get('type'), {}).get('fields', []):
                if f['format'] in STRING_FORMATS and isinstance(d.get(f['key']), int):
                    d[f['key']] = strings[d[f['key']]]
    return schemas, used


def first_difference(a, b, path='$'):
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f'{path}.{k}'
            d = first_difference(a[k], b[k], f'{path}.{k}')
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f'{path}[{i}]')
            if d:
                return d
        return f'{path} (length {len(a)} vs {len(b)})' if len(a) != len(b) else None
    return None if a == b else path


def compare(old_path, new_path, name):
    old, new = load(old_path), load(new_path)
    if old == new:
        return []
    if not (name.endswith('.json') or name.endswith('.json.gz')) or not old or not new:
        return [f'{name}: bytes differ']
    a, b = json.loads(old), json.loads(new)
    if not isinstance(a, dict) or 'shared' not in a:
        d = first_difference(a, b)
        return [f'{name}: {d}'] if d else []
    schemas_a, used_a = canonical(a)
    schemas_b, used_b = canonical(b)
    problems = []
    for n in sorted(used_a | used_b):
        if schemas_a.get(n) != schemas_b.get(n):
            problems.append(f'{name}: marker schema {n!r} differs or is missing')
    d = first_difference(a, b)
    if d:
        problems.append(f'{name}: first difference at {d}')
    return problems


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    old, new = argv[1], argv[2]
    if os.path.isdir(old) and os.path.isdir(new):
        names = sorted(set(os.listdir(old)) | set(os.listdir(new)))
        problems = []
        for n in names:
            if not os.path.exists(os.path.join(old, n)) or not os.path.exists(os.path.join(new, n)):
                problems.append(f'{n}: only in one directory')
            else:
                problems += compare(os.path.join(old, n), os.path.join(new, n), n)
    elif os.path.isfile(old) and os.path.isfile(new):
        problems = compare(old, new, os.path.basename(new))
    else:
        print('compare-profiles: give two directories or two files', file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    print(f'{len(problems)} difference(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
