"""Evaluation presets: the same steps as GluonCV's `presets.imagenet.transform_eval`."""
import cv2
import numpy as np


def imagenet_eval(img, resize=256, crop=224, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225),
                  scale=1 / 255.0, **_):
    """RGB uint8 HxWx3 -> float32 1x3xcropxcrop: resize the short side, center crop, scale, normalize.

    >>> imagenet_eval(np.zeros((300, 400, 3), np.uint8)).shape
    (1, 3, 224, 224)
    """
    h, w = img.shape[:2]
    s = resize / min(h, w)
    nh, nw = max(crop, round(h * s)), max(crop, round(w * s))
    # INTER_AREA when shrinking is close to the antialiased resize the torchvision weights were trained with
    img = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    top, left = (nh - crop) // 2, (nw - crop) // 2
    img = img[top:top + crop, left:left + crop].astype(np.float32) * scale
    img = (img - np.asarray(mean, np.float32)) / np.asarray(std, np.float32)
    return img.transpose(2, 0, 1)[None]
