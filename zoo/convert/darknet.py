"""Darknet's own files, read with numpy: a `.cfg` (sections and options, in order) and the `.weights` that goes with
it (arrays per cfg layer). Darknet, not YOLO: what the layers mean is the model family's business.

`.weights` layout (darknet's parser.c, also what OpenCV's readNetFromDarknet reads): int32 major, minor, revision;
`seen`, int64 when major * 10 + minor >= 2 else int32; then, for each [convolutional] section in cfg order, float32
[beta, gamma, running mean, running var] (batch_normalize=1) or [bias], each `filters` long, then the kernel
(filters, in_channels / groups, size, size). Nothing else has weights in the sections read here.

>>> sections = parse_cfg('[net]\\nchannels=3\\n# a comment\\n[convolutional]\\nfilters = 8\\nsize=3\\n')
>>> [(s.type, dict(s.options)) for s in sections]
[('net', {'channels': '3'}), ('convolutional', {'filters': '8', 'size': '3'})]
"""
import collections
import os

import numpy as np

from ..errors import BadInputError

Section = collections.namedtuple('Section', 'type options line')
Section.__doc__ = 'One [type] block of a .cfg: its options (name -> string, in file order) and its line number.'

#: sections whose output keeps the input's channel count and that carry no weights
_PASS_THROUGH = {'maxpool', 'avgpool', 'upsample', 'yolo', 'region', 'dropout', 'softmax', 'shortcut', 'cost'}


def parse_cfg(text):
    """[Section] of cfg `text`, the [net] section first, as darknet's read_cfg sees it: whitespace is dropped
    inside a line, '#' and ';' start a comment line, values stay strings."""
    sections = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = ''.join(raw.split())  # darknet's strip(): `saturation = 1.5` is `saturation=1.5`
        if not line or line[0] in '#;':
            continue
        if line[0] == '[':
            if line[-1] != ']':
                raise BadInputError(f'cfg line {n}: {raw.strip()!r} is not a [section] header')
            sections.append(Section(line[1:-1], collections.OrderedDict(), n))
        elif not sections:
            raise BadInputError(f'cfg line {n}: option {raw.strip()!r} comes before any [section]')
        elif '=' not in line:
            raise BadInputError(f'cfg line {n}: {raw.strip()!r} is not option=value')
        else:
            key, value = line.split('=', 1)
            sections[-1].options[key] = value
    if not sections or sections[0].type not in ('net', 'network'):
        raise BadInputError('a darknet cfg starts with a [net] section')
    return sections


def read_cfg(path):
    """parse_cfg of the file at `path`."""
    try:
        with open(path, encoding='utf-8') as f:
            return parse_cfg(f.read())
    except OSError as e:
        raise BadInputError(f'cannot read darknet cfg {path}: {e.strerror or e}') from None
    except UnicodeDecodeError as e:  # found by tests/fuzz
        raise BadInputError(f'darknet cfg {path} is not UTF-8 text (byte {e.start}): is it the .weights file?') \
            from None


def _int(section, key, default=None):
    value = section.options.get(key)
    if value is None:
        if default is None:
            raise BadInputError(f'cfg line {section.line}: [{section.type}] has no {key}=')
        return default
    try:
        return int(value)
    except ValueError:
        raise BadInputError(f'cfg line {section.line}: [{section.type}] {key}={value} is not an integer') from None


def conv_shapes(sections):
    """[(layer index, filters, in_channels / groups, size, batch_normalize)] of every [convolutional] section; layer
    indices count from 0 after [net], as darknet's route layers do. Channel counts are followed through routes."""
    channels, out = [], []
    prev = _int(sections[0], 'channels', 3)
    for i, s in enumerate(sections[1:]):
        if s.type in ('convolutional', 'conv'):
            filters, groups = _int(s, 'filters'), _int(s, 'groups', 1)
            if prev % groups:
                raise BadInputError(f'cfg line {s.line}: {prev} input channels do not split into groups={groups}')
            out.append((i, filters, prev // groups, _int(s, 'size', 1), _int(s, 'batch_normalize', 0)))
            prev = filters
        elif s.type == 'route':
            try:
                refs = [int(v) for v in s.options.get('layers', '').split(',') if v]
            except ValueError:
                raise BadInputError(f'cfg line {s.line}: route layers={s.options["layers"]} are not integers') \
                    from None
            refs = [r + i if r < 0 else r for r in refs]
            if not refs or not all(0 <= r < i for r in refs):
                raise BadInputError(f'cfg line {s.line}: route layers={s.options.get("layers")} do not name '
                                    f'earlier layers (this is layer {i})')
            prev = sum(channels[r] for r in refs) // _int(s, 'groups', 1)
        elif s.type not in _PASS_THROUGH:
            raise BadInputError(f'cfg line {s.line}: darknet section [{s.type}] is not supported by this reader')
        channels.append(prev)
    return out


def read_weights(cfg_path, weights_path):
    """(header, layers) of a darknet model: header {'major', 'minor', 'revision', 'seen'}; layers a list with one
    dict per cfg layer (after [net]): {'beta', 'gamma', 'mean', 'var', 'weight'} (batch_normalize=1) or {'bias',
    'weight'} for a convolutional layer, {} for the others. A file shorter or longer than the cfg implies is
    refused, naming both byte counts."""
    sections = read_cfg(cfg_path)
    convs = conv_shapes(sections)
    try:
        size = os.path.getsize(weights_path)
        with open(weights_path, 'rb') as f:
            head = np.fromfile(f, np.int32, 3)
            if head.size < 3:
                raise BadInputError(f'{weights_path} has {size} bytes: too short for a darknet .weights header')
            major, minor, revision = (int(v) for v in head)
            seen_type = np.int64 if major * 10 + minor >= 2 else np.int32
            seen = np.fromfile(f, seen_type, 1)
            header_bytes = 12 + np.dtype(seen_type).itemsize
            counts = [n * (4 if bn else 1) + n * c * k * k for _, n, c, k, bn in convs]
            expected = header_bytes + 4 * sum(counts)
            if size != expected:
                raise BadInputError(f'{weights_path} has {size} bytes, {os.path.basename(cfg_path)} expects '
                                    f'{expected} (header {header_bytes} + {sum(counts)} float32): truncated, or '
                                    'not the weights of this cfg')
            data = np.fromfile(f, '<f4', sum(counts))
    except OSError as e:
        raise BadInputError(f'cannot read darknet weights {weights_path}: {e.strerror or e}') from None
    layers = [{} for _ in sections[1:]]
    at = 0
    for (i, n, c, k, bn), count in zip(convs, counts):
        chunk = data[at:at + count]
        at += count
        names = ('beta', 'gamma', 'mean', 'var') if bn else ('bias',)
        for j, name in enumerate(names):
            layers[i][name] = chunk[j * n:(j + 1) * n].astype(np.float32)
        layers[i]['weight'] = chunk[len(names) * n:].reshape(n, c, k, k).astype(np.float32)
    header = {'major': major, 'minor': minor, 'revision': revision, 'seen': int(seen[0])}
    return header, layers
