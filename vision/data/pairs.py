"""What the detection and segmentation datasets share: `(image, target)` samples made by the subclass's
`sample(i)` (untransformed) and then the optional `transform(image, target)` (kept as `_transform`)."""
from mxnet.gluon.data import Dataset


class ImagePairs(Dataset):
    """`items` (image paths, one a sample), `classes`, `sample(i)` and the optional `transform` a subclass sets."""
    _transform = None  # not `transform`: that is Gluon's Dataset.transform(fn), which GluonCV users call

    @property
    def num_class(self):
        return len(self.classes)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        image, target = self.sample(idx)
        return self._transform(image, target) if self._transform else (image, target)
