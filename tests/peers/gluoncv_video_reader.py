"""(peers venv) The frames GluonCV's video decoder, decord 0.6, shows: for each job {path, ids, out}, the frames
`ids` of the video read one after another from the start (decord's VideoReader.next(): the decoder's own order;
its get_batch seeks, and on AVIs with packed B-frames such as Megamind.avi returns other frames), saved to <out>
(.npy, (N, H, W, 3) uint8 RGB), and its frame count to <out>.len.npy."""
import json
import sys

import decord
import numpy as np

if __name__ == '__main__':
    for job in json.loads(sys.argv[2]):
        vr = decord.VideoReader(job['path'], num_threads=1)
        wanted, frames = set(job['ids']), {}
        for i in range(max(wanted) + 1):
            frame = vr.next()
            if i in wanted:
                frames[i] = frame.asnumpy()
        np.save(job['out'], np.stack([frames[i] for i in job['ids']]))
        np.save(job['out'] + '.len.npy', np.array(len(vr)))
