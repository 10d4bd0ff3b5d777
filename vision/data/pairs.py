"""What the detection and segmentation datasets share: `(image, target)` samples made by the subclass's
`sample(i)` (untransformed) and then the optional `transform(image, target)`."""
from mxnet.gluon.data import Dataset


class ImagePairs(Dataset):
    """`items` (image paths, one a sample), `classes`, `sample(i)` and the optional `transform` a subclass sets."""
    transform = None

    @property
    def num_class(self):
        return len(self.classes)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        image, target = self.sample(idx)
        return self.transform(image, target) if self.transform else (image, target)
