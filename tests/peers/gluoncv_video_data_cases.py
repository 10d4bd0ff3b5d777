"""The video dataset calls of tests/vision/test_video_data.py, written once for both sides: `cases(data, V, roots)`
builds GluonCV's video datasets through the module `data` (gluoncv.data in the peers venv, gluonzoo.vision.data.video
in ours) with the transforms of `V` (gluoncv.data.transforms.video / gluonzoo.vision.transforms.video) over the
folders the test wrote, and returns {case: thunk}; `run` calls each after seeding Python's `random` and numpy's
generator with the case's index and returns {case.i: clip, case.label.i: label, case.len: length}."""
import random

import numpy as np

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def _all(ds, repeats=1):
    return [(len(ds),)] + [ds[i] for _ in range(repeats) for i in range(len(ds))]


def cases(data, V, roots):
    frames, videos = roots['frames'], roots['videos']
    lst, lst_videos = roots['frames_list'], roots['videos_list']
    raw = dict(new_width=32, new_height=24, target_width=32, target_height=24)  # no transform: the frames as read

    def ds(**kw):
        return data.VideoClsCustom(kw.pop('root', frames), kw.pop('setting', lst), **kw)
    c = {
        'tsn_train': lambda: _all(ds(num_segments=3, **raw), repeats=2),
        'tsn_val': lambda: _all(ds(train=False, num_segments=3, **raw)),
        'clip_val': lambda: _all(ds(train=False, num_segments=2, new_length=4, new_step=2,
                                    target_width=20, target_height=20,
                                    transform=V.VideoGroupValTransform(20, MEAN, STD))),
        'clip_test_long': lambda: _all(ds(test_mode=True, new_length=8, new_step=3, **raw)),
        'clip_train_long': lambda: _all(ds(new_length=12, new_step=2, num_segments=2, **raw)),
        'jitter_train': lambda: _all(ds(num_segments=2, new_length=4, new_step=3, temporal_jitter=True,
                                        target_width=24, target_height=24,
                                        transform=V.VideoGroupTrainTransform((24, 24), [1.0, 0.875, 0.75], MEAN, STD)),
                                     repeats=2),
        'slowfast_train': lambda: _all(ds(new_length=8, slowfast=True, fast_temporal_stride=2, slow_temporal_stride=4,
                                          transform=V.VideoToTensor(), **raw)),
        'slowfast_val': lambda: _all(ds(train=False, new_length=16, num_segments=2, slowfast=True,
                                        slow_temporal_stride=8, **raw)),
        'three_crop_test': lambda: _all(ds(test_mode=True, new_length=2, num_crop=3, new_width=36, new_height=24,
                                           target_width=24, target_height=24,
                                           transform=V.VideoThreeCrop(24))),
        'native_size': lambda: _all(ds(train=False, new_length=3, new_width=52, new_height=40, target_width=52,
                                       target_height=40)),
        'no_resize': lambda: _all(ds(train=False, new_width=-1, new_height=-1, target_width=52, target_height=40)),
        'kinetics400': lambda: _all(data.Kinetics400(root=frames, setting=lst, train=False, new_length=2, **raw)),
        'kinetics700': lambda: _all(data.Kinetics700(frames, lst, False, new_length=2, **raw)),
        'ucf101': lambda: _all(data.UCF101(root=frames, setting=lst, num_segments=2, **raw)),
        'hmdb51': lambda: _all(data.HMDB51(root=frames, setting=lst, test_mode=True, new_length=3, **raw)),
        'sthsthv2': lambda: _all(data.SomethingSomethingV2(root=roots['sth'], setting=roots['sth_list'],
                                                           train=False, new_length=2, **raw)),
        # video files: GluonCV reads them with decord; at the videos' own size (its data_aug='v1' resize happens
        # inside FFmpeg there, a bilinear of the YUV planes, which no OpenCV resize reproduces)
        'video_val': lambda: _all(ds(root=videos, setting=lst_videos, train=False, new_length=4, num_segments=2,
                                     video_loader=True, use_decord=True, new_width=52, new_height=40,
                                     target_width=52, target_height=40)),
        'video_train': lambda: _all(ds(root=videos, setting=lst_videos, new_length=3, new_step=2, num_segments=3,
                                       video_loader=True, use_decord=True, data_aug='v2', target_width=52,
                                       target_height=40), repeats=2),
        'video_slowfast': lambda: _all(ds(root=videos, setting=lst_videos, new_length=8, slowfast=True,
                                          slow_temporal_stride=4, video_loader=True, use_decord=True,
                                          data_aug='v3', target_width=24, target_height=24,
                                          transform=V.VideoCenterCrop(24))),
        'video_test': lambda: _all(ds(root=videos, setting=lst_videos, test_mode=True, new_length=16, num_segments=2,
                                      video_loader=True, use_decord=True, data_aug='v2', target_width=20,
                                      target_height=20, transform=V.VideoGroupValTransformV2((20, 20), 24, MEAN,
                                                                                             STD))),
        'attrs': lambda: [(a.num_class, len(a.classes), sum(len(c) * (k + 1) for k, c in enumerate(a.classes)))
                          for a in (data.Kinetics400Attr(), data.Kinetics700Attr(), data.UCF101Attr(),
                                    data.HMDB51Attr(), data.SomethingSomethingV2Attr())],
    }
    return c


def run(data, V, roots):
    out = {}
    for i, (name, thunk) in enumerate(sorted(cases(data, V, roots).items())):
        random.seed(i)
        np.random.seed(i)
        got = thunk()
        out[f'{name}.len'] = np.asarray(got[0])
        for j, item in enumerate(got[1:]):
            if isinstance(item, tuple) and len(item) == 2 and hasattr(item[0], 'asnumpy'):
                out[f'{name}.{j}'], out[f'{name}.label.{j}'] = item[0].asnumpy(), np.asarray(item[1])
            else:
                out[f'{name}.{j}'] = np.asarray(item)
    return out

