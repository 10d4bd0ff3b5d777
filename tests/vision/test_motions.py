"""The motion video generator: a fixed spec gives the same bytes and clip i depends on (seed, split, i) only; the
AVI files decode (OpenCV's reader) to the frames rendered, within Motion-JPEG's loss, as many as the list says;
opposite motions cover the same frames (a path played backwards is a path of the other class); the cache reuses a
folder while it matches its checksum; bad specs are one clear error."""
import dataclasses

import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.data.motions import MOTIONS, MotionSpec, _path, make_motions, motions_folder, render_motion
from gluonzoo.vision.data.scenes import TRAIN_PHOTOS, _load_objects, _load_photos, folder_checksum
from gluonzoo.vision.data.video_reader import read_video

TINY = MotionSpec(train=16, val=8, test=8, size=32, frames=6)


@pytest.fixture(scope='module')
def motions(tmp_path_factory):
    root = tmp_path_factory.mktemp('motions') / 'tiny'
    return root, make_motions(root, TINY)


def _decode(path):
    return read_video(path, backend='opencv')  # OpenCV's reader: another decoder than the one that wrote them


def test_same_spec_same_bytes_and_clips_depend_on_their_index_only(motions, tmp_path):
    root, manifest = motions
    assert make_motions(tmp_path / 'again', TINY)['checksum'] == manifest['checksum'] == \
        folder_checksum(root, exclude=('motions.json',))
    bigger = make_motions(tmp_path / 'bigger', dataclasses.replace(TINY, train=24))
    for i in (0, 7, 15):
        rel = f'videos/{MOTIONS[i % 8]}/train_{i:05d}.avi'
        assert (root / rel).read_bytes() == (tmp_path / 'bigger' / rel).read_bytes()
    assert bigger['splits']['train'] == {m: 3 for m in MOTIONS}


def test_lists_name_real_videos_that_decode_to_the_rendered_frames(motions):
    root, manifest = motions
    assert (root / 'classes.txt').read_text().split() == list(MOTIONS)
    photos, (glyphs, _) = _load_photos(TRAIN_PHOTOS), _load_objects('digits', 'train')
    for split in ('train', 'val', 'test'):
        lines = (root / f'{split}_list.txt').read_text().splitlines()
        assert len(lines) == getattr(TINY, split)
        for line in lines[:2]:
            rel, frames, label = line.split()
            clip = _decode(root / rel)
            assert clip.shape == (int(frames), TINY.size, TINY.size, 3) and rel.split('/')[1] == MOTIONS[int(label)]
    # train clip 3 again from its seed: the file holds it, Motion-JPEG aside
    want = render_motion(np.random.RandomState([TINY.seed, 0, 3]), photos, glyphs, MOTIONS[3], TINY)
    got = _decode(root / f'videos/{MOTIONS[3]}/train_00003.avi').astype(int)
    assert np.abs(got - want).mean() < 6


@pytest.mark.parametrize('a,b', [('move_left', 'move_right'), ('move_up', 'move_down'), ('rotate_cw', 'rotate_ccw'),
                                 ('grow', 'shrink')])
def test_opposite_motions_cover_the_same_frames(a, b):
    # with the same draws, a path of `b` is a path of `a` played backwards (a half turn's other end for rotations):
    # the set of frames is the same, only their order tells the classes apart
    for seed in range(50):
        pa = np.array(_path(np.random.RandomState(seed), a, 48, 8))
        pb = np.array(_path(np.random.RandomState(seed), b, 48, 8))
        back = pa[:, ::-1].copy()
        if a == 'rotate_cw':
            back[3] = (back[3] + 180.0) % 360
            pb[3] = pb[3] % 360
        np.testing.assert_allclose(back, pb, atol=1e-9)
        assert not np.allclose(pa, pb)


def test_cache_reuses_a_matching_folder_and_regenerates_an_edited_one(tmp_path):
    first = motions_folder(TINY, cache=tmp_path)
    assert motions_folder(TINY, cache=tmp_path) == first
    clip = next((tmp_path / first / 'videos' / 'grow').iterdir())
    clip.write_bytes(clip.read_bytes()[:100])
    with pytest.warns(UserWarning, match='does not match the checksum'):
        motions_folder(TINY, cache=tmp_path)
    assert _decode(clip).shape[0] == TINY.frames


@pytest.mark.parametrize('kwargs,match', [({'train': 7}, 'multiple of the 8 motions'), ({'size': 16}, '24 pixels'),
                                          ({'frames': 1}, 'at least 2 frames')])
def test_bad_specs_say_what_to_do(kwargs, match):
    with pytest.raises(BadInputError, match=match):
        MotionSpec(**kwargs)


def test_writes_into_a_new_folder_only(motions):
    with pytest.raises(BadInputError, match='not empty'):
        make_motions(motions[0], TINY)
