"""Inference with zoo models on images: `classify` (the path behind `gluonzoo predict`, the demo and `verify`)."""
import numpy as np

from ..errors import BadInputError
from .image import read_image
from .transforms import from_preprocess


def classify(net, images, topk=5, batch_size=8, preprocess=None):
    """Top-k (label, probability) lists for image paths or RGB arrays, preprocessed as `net.weights` says (its
    record's eval transform: size, color, crop, mean/std), or as an explicit `preprocess` dict says."""
    import mxnet as mx
    w = getattr(net, 'weights', None)
    if preprocess is not None:
        transform = from_preprocess(preprocess)
    elif w is not None:
        transform = w.transforms()
    else:
        raise BadInputError(f'{type(net).__name__} carries no weights record to say how to preprocess images: pass '
                            "preprocess= (e.g. gz.get_weights('mobilenetv2_1.0').preprocess)")
    labels = getattr(net, 'classes', None)
    ctx = next(iter(net.collect_params().values())).list_ctx()[0]
    results = []
    for i in range(0, len(images), batch_size):
        batch = [read_image(x) if not isinstance(x, np.ndarray) else x for x in images[i:i + batch_size]]
        x = mx.nd.array(np.stack([transform(b) for b in batch]), ctx=ctx)
        prob = mx.nd.softmax(net(x)).asnumpy()
        for p in prob:
            idx = np.argsort(-p)[:topk]
            results.append([(labels[j] if labels else str(j), float(p[j])) for j in idx])
    return results
