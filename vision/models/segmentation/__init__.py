"""Semantic and instance segmentation families (FCN, PSPNet, DeepLabV3, Mask R-CNN), one file or folder a family,
on backbones from the registry (`registry.get_backbone`)."""
