"""gluoncv.data.transforms.pose (gluonzoo.vision.transforms.ndarray.pose)."""
from gluonzoo.vision.transforms.ndarray.pose import (affine_transform, crop, crop_resize_normalize,
                                                    detector_to_simple_pose, flip_heatmap, flip_joints_3d,
                                                    get_3rd_point, get_affine_transform, get_dir, get_final_preds,
                                                    get_max_pred, heatmap_to_coord, transform_predictions,
                                                    transform_preds, try_import_cv2, upscale_bbox_fn)

__all__ = ['affine_transform', 'crop', 'crop_resize_normalize', 'detector_to_simple_pose', 'flip_heatmap',
           'flip_joints_3d', 'get_3rd_point', 'get_affine_transform', 'get_dir', 'get_final_preds', 'get_max_pred',
           'heatmap_to_coord', 'transform_predictions', 'transform_preds', 'try_import_cv2', 'upscale_bbox_fn']
