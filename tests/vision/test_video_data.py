"""gluonzoo.vision.data.video against GluonCV 0.10.5's video datasets: the same calls
(tests/peers/gluoncv_video_data_cases.py, one list for both) over frame folders and small videos written here with
OpenCV's VideoWriter, under the same seeds, give the same clips: the same frame indices (TSN segments, clips,
new_step, temporal jitter, SlowFast's fast and slow frames, train / val / test offsets, clips longer than the video)
and the same pixels (GluonCV reads the videos with decord 0.6, we with PyAV). Then the list formats, a folder of
videos one sub-folder a class, and the errors."""
import os
import shutil

import cv2
import numpy as np
import pytest

from gluonzoo.errors import BadInputError
from gluonzoo.vision.data import video as data
from gluonzoo.vision.data.video import clip_frame_ids, sample_offsets, slowfast_frame_ids
from gluonzoo.vision.data.video_reader import VideoError, VideoNotFoundError
from gluonzoo.vision.transforms import video as V
from tests.peers import run_peer
from tests.peers.gluoncv_video_data_cases import cases, run

LENGTHS, LABELS = (9, 20, 33), (2, 0, 1)


def _frame(k, i):
    """Frame i of video k, 40x52 RGB: a gradient that moves with i, a bar at a place only i gives."""
    yy, xx = np.mgrid[0:40, 0:52]
    img = np.stack([(xx * 4 + i * 7) % 256, (yy * 5 + k * 60) % 256, (xx + yy + i * 3) % 256], -1).astype(np.uint8)
    img[4:14, (i * 3) % 44:(i * 3) % 44 + 8] = (255, 255, 255)
    return img


def _write(root):
    roots = {'frames': str(root / 'frames'), 'videos': str(root / 'videos'), 'sth': str(root / 'sth'),
             'frames_list': str(root / 'frames.txt'), 'videos_list': str(root / 'videos.txt'),
             'sth_list': str(root / 'sth.txt')}
    for k, n in enumerate(LENGTHS):
        for folder, pattern in ((root / 'frames' / f'vid{k}', 'img_%05d.jpg'), (root / 'sth' / str(k), '%06d.jpg')):
            folder.mkdir(parents=True)
            for i in range(n):
                cv2.imwrite(str(folder / (pattern % (i + 1))), _frame(k, i)[:, :, ::-1])
        (root / 'videos').mkdir(exist_ok=True)
        vw = cv2.VideoWriter(str(root / 'videos' / f'vid{k}.mp4'), cv2.VideoWriter_fourcc(*'mp4v'), 25, (52, 40))
        for i in range(n):
            vw.write(_frame(k, i)[:, :, ::-1])
        vw.release()
    with open(roots['frames_list'], 'w') as f:
        f.writelines(f'vid{k} {n} {lab}\n' for k, (n, lab) in enumerate(zip(LENGTHS, LABELS)))
    with open(roots['videos_list'], 'w') as f:  # the count of a video comes from the file (GluonCV's too): here 1
        f.writelines(f'vid{k}{".mp4" if k == 0 else ""} 1 {lab}\n' for k, lab in enumerate(LABELS))
    with open(roots['sth_list'], 'w') as f:
        f.writelines(f'{k} {n} {lab}\n' for k, (n, lab) in enumerate(zip(LENGTHS, LABELS)))
    return roots


@pytest.fixture(scope='module')
def roots(tmp_path_factory):
    return _write(tmp_path_factory.mktemp('video_data'))


@pytest.fixture(scope='module')
def outputs(roots, tmp_path_factory):
    out = tmp_path_factory.mktemp('video_data_ref')
    run_peer('gluoncv_video_data.py', out, [{'roots': roots, 'out': str(out / 'ref.npz')}], timeout=300)
    return run(data, V, roots), dict(np.load(out / 'ref.npz'))


@pytest.mark.parametrize('name', sorted(cases(data, V, {k: '' for k in ('frames', 'videos', 'frames_list',
                                                                        'videos_list', 'sth', 'sth_list')})))
def test_same_samples_as_gluoncv(outputs, name):
    ours, ref = outputs
    keys = sorted(k for k in ref if k.split('.')[0] == name)
    assert sorted(k for k in ours if k.split('.')[0] == name) == keys, f'{name}: a different number of samples'
    for k in keys:
        got, want = ours[k], ref[k]
        assert got.shape == want.shape, f'{k}: shape {got.shape}, GluonCV {want.shape}'
        # uint8 pixels through float32 (no transform, or crops) are exact; normalized tensors to float32's precision
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-5, err_msg=k)


def test_sampling_rules():
    # the middle of each segment in validation; a clip runs on past the end by repeating frames, never short
    offsets, jitter = sample_offsets(20, num_segments=2, new_length=4, new_step=2, mode='val')
    assert offsets.tolist() == [4, 10] and jitter.tolist() == [0, 0, 0, 0]
    assert clip_frame_ids(offsets, jitter, 20, 4, 2) == [3, 5, 7, 9, 9, 11, 13, 15]
    offsets, jitter = sample_offsets(5, new_length=4, new_step=3, mode='test')
    assert clip_frame_ids(offsets, jitter, 5, 4, 3) == [0, 3, 3, 3]
    # SlowFast: every 2nd frame of 8 to the fast pathway, every 4th to the slow one, fast first
    assert slowfast_frame_ids(np.array([1]), np.zeros(8, int), 30, 8, 2, 4) == [1, 3, 5, 7, 3, 7]


def test_two_column_lists_and_class_folders(roots, tmp_path):
    # "path label" lines: the frame count comes from the folder (or the video); GluonCV refuses such lines
    two = tmp_path / 'two.txt'
    two.write_text(''.join(f'vid{k} {lab}\n' for k, lab in enumerate(LABELS)))
    size = dict(new_width=52, new_height=40, target_width=52, target_height=40, transform=V.VideoToTensor())
    three = data.VideoClsCustom(roots['frames'], roots['frames_list'], train=False, new_length=5, **size)
    ds = data.VideoClsCustom(roots['frames'], str(two), train=False, new_length=5, **size)
    for i in range(3):
        assert ds[i][1] == LABELS[i] and np.array_equal(ds[i][0].asnumpy(), three[i][0].asnumpy())
    vids = data.VideoClsCustom(roots['videos'], str(two), train=False, new_length=5, video_loader=True, **size)
    assert vids[2][0].shape == (1, 3, 5, 40, 52)
    # setting=None: root/<class>/<video>, classes sorted
    lib = tmp_path / 'lib'
    for k, cls in enumerate(('walk', 'run', 'jump')):
        (lib / cls).mkdir(parents=True)
        shutil.copy(os.path.join(roots['videos'], f'vid{k}.mp4'), lib / cls / f'clip{k}.mp4')
    (lib / 'run' / 'notes.txt').write_text('not a video')
    ds = data.VideoClsCustom(str(lib), None, video_loader=True, train=False, new_length=4, new_width=52,
                             new_height=40, target_width=52, target_height=40)
    assert ds.classes == ['jump', 'run', 'walk'] and len(ds) == 3
    assert [ds[i][1] for i in range(3)] == [0, 1, 2]
    direct = data.VideoClsCustom(roots['videos'], roots['videos_list'], video_loader=True, train=False,
                                 new_length=4, new_width=52, new_height=40, target_width=52, target_height=40)
    assert np.array_equal(ds[0][0].asnumpy(), direct[2][0].asnumpy())  # jump/clip2.mp4 is vid2.mp4


def test_errors_name_the_file(roots, tmp_path):
    with pytest.raises(VideoNotFoundError, match='missing.txt'):
        data.VideoClsCustom(roots['frames'], str(tmp_path / 'missing.txt'))
    bad = tmp_path / 'bad.txt'
    bad.write_text('vid0 9 0\nvid1 twenty 1\n')
    with pytest.raises(VideoError, match=r'bad.txt:2'):
        data.VideoClsCustom(roots['frames'], str(bad))
    empty = tmp_path / 'empty.txt'
    empty.write_text('\n')
    with pytest.raises(VideoError, match='lists no video clips'):
        data.VideoClsCustom(roots['frames'], str(empty))
    # a list that claims more frames than the folder holds, a missing video, a cut video: one error naming it
    over = tmp_path / 'over.txt'
    over.write_text('vid0 50 0\n')
    with pytest.raises(VideoNotFoundError, match='img_000(2|3|4)[0-9].jpg'):
        data.VideoClsCustom(roots['frames'], str(over), train=False, new_length=4)[0]
    gone = tmp_path / 'gone.txt'
    gone.write_text('nowhere 10 0\n')
    with pytest.raises(VideoNotFoundError, match='nowhere.mp4'):
        data.VideoClsCustom(roots['videos'], str(gone), video_loader=True)[0]
    cut = tmp_path / 'cut'
    cut.mkdir()
    blob = open(os.path.join(roots['videos'], 'vid2.mp4'), 'rb').read()
    (cut / 'vid2.mp4').write_bytes(blob[:len(blob) // 2])
    with pytest.raises(VideoError, match='vid2.mp4'):
        data.VideoClsCustom(str(cut), roots['videos_list'], video_loader=True)[2]
    with pytest.raises(BadInputError, match='new_step=1'):
        data.VideoClsCustom(roots['frames'], roots['frames_list'], slowfast=True, new_step=2)
    with pytest.raises(BadInputError, match='target_height'):
        data.VideoClsCustom(roots['frames'], roots['frames_list'], new_width=30, new_height=20)[0]
    assert isinstance(VideoError('x'), RuntimeError)  # GluonCV raises RuntimeError here: code catching it still does


def test_signatures_are_gluoncv():
    import inspect
    params = list(inspect.signature(data.Kinetics400).parameters.values())
    assert [p.name for p in params][:5] == ['root', 'setting', 'train', 'test_mode', 'name_pattern']
    assert params[0].default.endswith(os.path.join('.mxnet', 'datasets', 'kinetics400', 'rawframes_train'))
    assert inspect.signature(data.SomethingSomethingV2).parameters['name_pattern'].default == '%06d.jpg'
