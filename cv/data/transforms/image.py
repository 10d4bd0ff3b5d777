"""gluoncv.data.transforms.image (gluonzoo.vision.transforms.ndarray.image)."""
from gluonzoo.vision.transforms.ndarray.image import (imresize, random_expand, random_flip, random_pca_lighting,
                                                     resize_contain, resize_long, resize_short_within, ten_crop)

__all__ = ['imresize', 'resize_long', 'resize_short_within', 'random_pca_lighting', 'random_expand', 'random_flip',
           'resize_contain', 'ten_crop']
