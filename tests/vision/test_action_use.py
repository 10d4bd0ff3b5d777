"""Using the action recognizers: the test clip's frame indices a record's preprocess gives, `recognize` on real video
files against the same frames through GluonCV's eval transform (gluonzoo.vision.transforms.video, checked equal to
GluonCV's in test_video_transforms.py), `gluonzoo recognize`'s errors, and training through the engine on a folder
of videos (the recipe scripts/vision/action/train.py on a tiny generated motion list)."""
import os

import mxnet as mx
import numpy as np
import pytest

import gluonzoo as gz
from gluonzoo.cli import main
from gluonzoo.errors import BadInputError
from gluonzoo.vision.data.motions import MOTIONS, MotionSpec, make_motions
from gluonzoo.vision.data.video_reader import VideoReader
from gluonzoo.vision.inference import clip_indices, recognize
from gluonzoo.vision.meta import IMAGENET_MEAN, IMAGENET_STD
from gluonzoo.vision.transforms.video import VideoGroupValTransform

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
