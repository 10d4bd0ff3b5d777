"""Pose estimation families (SimplePose, MobilePose), one file or folder a family, on backbones from the registry
(`registry.get_backbone`)."""
