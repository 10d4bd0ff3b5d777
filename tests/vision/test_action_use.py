"""Using the action recognizers: the test clip's frame indices a record's preprocess gives, `recognize` on real video
files against the same frames through GluonCV's eval transform (gluonzoo.vision.transforms.video, checked equal to
GluonCV's in test_video_transforms.py), `gluonzoo recognize`'s errors, and training through the engine on a folder
of videos (the recipe scripts/vision/action/train.py on a tiny generated motion list)."""
import json
import os

import cv2
import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.cli import main
from gluonzoo.errors import BadInputError
from gluonzoo.vision.data.motions import MOTIONS, MotionSpec, make_motions
from gluonzoo.vision.data.video_reader import VideoReader
from gluonzoo.vision.inference import clip_indices, read_clip, recognize, views_of
from gluonzoo.vision.meta import IMAGENET_MEAN, IMAGENET_STD
from gluonzoo.vision.transforms.video import ShortSideRescale, VideoGroupValTransform, VideoNormalize, \
    VideoTenCrop, VideoThreeCrop, VideoToTensor

from gluonzoo.weights import Source, Weights

from ..conftest import registered, sha1
from ..train.helpers import ROOT, read_log, run_script

RECIPE = os.path.join(ROOT, 'scripts', 'vision', 'action', 'train.py')
TINY = MotionSpec(train=16, val=8, test=8, size=32, frames=8)


@pytest.fixture(scope='module')
def videos(tmp_path_factory):
    root = tmp_path_factory.mktemp('motions') / 'tiny'
    make_motions(root, TINY)
    return root


def test_clip_indices_follow_the_record():
    assert clip_indices(100, {"frames": 4, "step": 2}) == [46, 48, 50, 52]  # centred: 7 frames spanned
    assert clip_indices(10, {'segments': 3}) == [1, 5, 8]  # the middle frame of each third (TSN's test)
    # SlowFast 8x2 over a 16-frame clip: every 2nd frame to the fast pathway, every 8th to the slow one, after them
    assert clip_indices(64, {'frames': 16, 'slowfast': (8, 2)}) == list(range(25, 40, 2)) + [31, 39]
    assert clip_indices(6, {'frames': 4, 'step': 2}) == [0, 2, 4, 4]  # a short video's last frame repeats (GluonCV)


def test_recognize_scores_the_frames_gluoncvs_eval_transform_gives(videos):
    pre = dict(resize=(32, 32), crop=24, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, layout='NCHW',
               color='RGB', segments=4)
    mx.random.seed(0)
    net = gz.get_model('resnet18_v1b_custom', nclass=len(MOTIONS), pretrained_base=False,
                       use_kinetics_pretrain=False)
    net.initialize()
    net.classes = MOTIONS
    clip = videos / f'videos/{MOTIONS[1]}/train_00001.avi'
    top = recognize(net, [str(clip)], topk=3, preprocess=pre)[0]
    with VideoReader(clip) as vr:
        frames = vr.get_batch(clip_indices(len(vr), pre))
    x = VideoGroupValTransform(size=24, mean=IMAGENET_MEAN, std=IMAGENET_STD)(list(frames))  # 32x32: no resize
    p = mx.nd.softmax(net(mx.nd.array(np.stack(x))).mean(axis=0, keepdims=True)).asnumpy()[0]
    want = np.argsort(-p)[:3]
    assert [label for label, _ in top] == [MOTIONS[i] for i in want]
    np.testing.assert_allclose([q for _, q in top], p[want], rtol=1e-5)


def _gluoncv_views(frames, side, crops, resize):
    """GluonCV's test_recognizer.py transforms for --three-crop / --ten-crop (its v2 path) on RGB frames."""
    if crops == 3:
        frames = VideoThreeCrop(side)(ShortSideRescale(side)(list(frames)))
    else:  # the record's exact resize, then ten crops
        frames = VideoTenCrop(side)([cv2.resize(f, resize[::-1], interpolation=cv2.INTER_LINEAR) for f in frames])
    return np.stack(VideoNormalize(IMAGENET_MEAN, IMAGENET_STD)(VideoToTensor()(frames)))


@pytest.mark.parametrize('name, pre, views', [
    ('i3d_resnet50_v1_custom', {'frames': 8, 'step': 1, 'resize': (32, 40), 'crop': 28}, (2, 3)),
    ('resnet18_v1b_custom', {'segments': 3, 'resize': (28, 36), 'crop': 24}, (5, 10)),  # TSN: a frame a clip
])
def test_recognize_averages_gluoncvs_test_views(videos, name, pre, views):
    """recognize over (clips, crops) views scores what GluonCV's net built with num_segments=clips, num_crop=crops
    scores on its test_recognizer.py transforms (the views averaged inside the net, then the softmax)."""
    pre = dict(pre, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, layout='NCHW', color='RGB',
               interp='linear', test_views=views)
    clips, crops = views
    kwargs = dict(nclass=len(MOTIONS), pretrained_base=False, use_kinetics_pretrain=False)
    mx.random.seed(1)
    one = gz.get_model(name, **kwargs)
    one.initialize(mx.init.Xavier())
    one.classes = MOTIONS
    video = str(videos / f'videos/{MOTIONS[2]}/test_00002.avi')
    top = recognize(one, [video], topk=len(MOTIONS), preprocess=pre)[0]  # the record's test_views
    frames = read_clip(video, pre, clips=clips)
    side = pre['crop']
    x = _gluoncv_views(frames, side, crops, pre['resize'])  # (crops * clips * T, 3, side, side), crop by crop
    if 'frames' in pre:  # each crop's clips: (crops * clips, 3, T, side, side)
        x = mx.nd.array(x.reshape(crops * clips, pre['frames'], 3, side, side).transpose(0, 2, 1, 3, 4))
    else:
        x = mx.nd.array(x)
    many = gz.get_model(name, num_segments=clips, num_crop=crops, **kwargs)
    many.initialize()
    many(x)  # shapes the deferred parameters, then takes one's values
    for a, b in zip(one.collect_params().values(), many.collect_params().values()):
        b.set_data(a.data())
    p = mx.nd.softmax(many(x)).asnumpy()[0]
    assert [label for label, _ in top] == [MOTIONS[i] for i in np.argsort(-p)]
    np.testing.assert_allclose(sorted(q for _, q in top), np.sort(p), rtol=1e-4)
    assert recognize(one, [video], topk=2, preprocess=pre, views=(1, 1)) != top[:2]


def test_views_are_checked():
    assert views_of({}) == (None, 1) and views_of({'test_views': (10, 3)}) == (10, 3)
    assert views_of({'test_views': (10, 3)}, (1, 1)) == (1, 1)
    for views, what in (((0, 1), '0 clips'), ((2, 5), '5 crops'), ((True, 1), 'True clips')):
        with pytest.raises(BadInputError, match=what):
            views_of({}, views)


def test_gluonzoo_recognize_refuses_what_it_cannot_run(videos, capsys, tmp_path):
    def error(*argv):
        code = main(list(argv))
        lines = capsys.readouterr().err.strip().splitlines()
        assert code == 1 and len(lines) == 1, lines
        return lines[0]
    assert 'a model of the image-classification task and `gluonzoo recognize`' in error(
        'recognize', 'resnet18_v1b', str(videos / 'videos/grow/test_00006.avi'))
    missing = str(tmp_path / 'nothere.avi')
    assert missing in error('recognize', 'i3d_resnet50_v1_kinetics400', missing)
    cut = tmp_path / 'cut.avi'
    cut.write_bytes((videos / 'videos/grow/test_00006.avi').read_bytes()[:300])
    assert str(cut) in error('recognize', 'i3d_resnet50_v1_kinetics400', str(cut))
    assert '--topk 0 must be at least 1' in error('recognize', 'i3d_resnet50_v1_kinetics400', str(cut), '--topk', '0')
    assert "--views '3by1': give CLIPSxCROPS" in error('recognize', 'i3d_resnet50_v1_kinetics400', str(cut), '--views',
                                                     '3by1')
    assert 'views: 4 crops a frame' in error('recognize', 'i3d_resnet50_v1_kinetics400', str(cut), '--views', '1x4')


def test_the_recipe_trains_a_frame_model_on_a_video_folder(videos, tmp_path):
    args = ['--dataset', f'video_list:{videos}', '--epochs', '2', '--batch-size', '4', '--data-shape', '28',
            '--progress', '0', '--out', str(tmp_path / 'run')]
    run_script(RECIPE, *args)
    log = read_log(tmp_path / 'run' / 'train.jsonl')
    data = log[0]['dataset']
    assert data['classes'] == list(MOTIONS) and data['clip'] == [8, 32, 32] and data['segments'] == 4
    epochs = [r for r in log if r['type'] == 'epoch']
    assert [r['epoch'] for r in epochs] == [1, 2] and 0 <= epochs[-1]['eval']['top1'] <= 1
    net = gz.get_model('resnet18_v1b_custom', nclass=len(MOTIONS), num_segments=4, pretrained_base=False,
                       use_kinetics_pretrain=False)
    net.load_parameters(str(tmp_path / 'run' / log[-1]['weights_file']))  # strictly: the net it trained
    p = run_script(RECIPE, *args[:-1], str(tmp_path / 'flip'), '--augment', 'crop_flip', ok=False)
    assert p.returncode == 2 and 'action-recognition training takes none or crop' in p.stderr
    # GluonCV's --new-step is a clip model's: TSN's frames come from its segments
    p = run_script(RECIPE, *args[:-1], str(tmp_path / 'step'), '--dataset-kwargs', '{"new_step": 2}', ok=False)
    assert p.returncode == 2 and 'new_step=2: resnet18_v1b_custom takes frames (TSN segments)' in p.stderr
    p = run_script(RECIPE, *args[:-1], str(tmp_path / 'step0'), '--model', 'i3d_resnet50_v1_custom',
                   '--dataset-kwargs', '{"new_step": 0}', ok=False)
    assert p.returncode == 2 and "new_step=0 (--dataset-kwargs): the step between a clip's frames" in p.stderr


def test_gluonzoo_recognize_writes_the_clip_and_its_actions(videos, tmp_path, monkeypatch, capsys):
    """`gluonzoo recognize NAME VIDEO --out DIR` on a registered TSN whose seeded random weights sit in a
    $GLUONZOO_PATH folder: the printed top-k is recognize()'s, <stem>.png shows the clip's frames, <stem>.json the
    same top-k; two videos of one stem are refused before anything is read."""
    mx.random.seed(3)
    kwargs = dict(nclass=len(MOTIONS), num_segments=4, pretrained_base=False, use_kinetics_pretrain=False)
    net = gz.get_model('resnet18_v1b_custom', **kwargs)
    net.initialize(mx.init.Xavier())
    net(mx.nd.zeros((4, 3, 24, 24)))
    folder = tmp_path / 'path'
    folder.mkdir()
    params = folder / 'weights.params'
    net.save_parameters(str(params))
    pre = dict(crop=24, mean=IMAGENET_MEAN, std=IMAGENET_STD, scale=1 / 255.0, layout='NCHW', color='RGB',
               segments=4)
    record = Weights(arch='tsn_cli', tag='t', default=True, sha1=sha1(params.read_bytes()), num_params=1,
                     task='action-recognition', classes=MOTIONS, preprocess=pre, input_shape=(4, 3, 24, 24),
                     source=Source(kind='mirror', url='http://127.0.0.1:9/never/'))
    os.replace(params, folder / f'{record.file_stem}.params')
    monkeypatch.setenv('GLUONZOO_PATH', str(folder))
    video = str(videos / f'videos/{MOTIONS[5]}/test_00005.avi')
    with registered('tsn_cli', lambda classes=None: gz.get_model('resnet18_v1b_custom', **kwargs),
                    task='action-recognition', weights=[record], protected=('num_segments',)):
        assert main(['recognize', 'tsn_cli', video, '--topk', '3', '--out', str(tmp_path / 'out')]) == 0
        printed = capsys.readouterr().out.splitlines()
        want = recognize(gz.get_model('tsn_cli', pretrained=True), [video], topk=3)[0]
        (tmp_path / 'copy').mkdir()
        twin = tmp_path / 'copy' / 'test_00005.avi'
        twin.write_bytes(b'not read')
        assert main(['recognize', 'tsn_cli', video, str(twin), '--out', str(tmp_path / 'out')]) == 1
        assert 'two images are named test_00005' in capsys.readouterr().err
    assert printed[0] == video and [line.split()[1] for line in printed[1:4]] == [label for label, _ in want]
    saved = json.loads((tmp_path / 'out' / 'test_00005.json').read_text())
    assert [(t['label'], t['prob']) for t in saved['topk']] == want and saved['views'] == [None, 1]
    picture = cv2.imread(str(tmp_path / 'out' / 'test_00005.png'))
    assert picture.shape[0] == 98 and picture.shape[1] > 4 * 98  # one row of the 4 frames (96 + 2 apart), the bars
