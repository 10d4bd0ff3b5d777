"""gluoncv.utils.viz: GluonCV's plotting signatures over gluonzoo's drawing code (gluonzoo.vision.plotting)."""
from gluonzoo import aliases
from gluonzoo.vision.plotting import (DeNormalize, cv_merge_two_images, cv_plot_bbox, cv_plot_image,
                                      cv_plot_keypoints, expand_mask, get_color_pallete, plot_bbox, plot_image,
                                      plot_keypoints, plot_mask, plot_mxboard, plot_network)

__all__ = ['DeNormalize', 'cv_merge_two_images', 'cv_plot_bbox', 'cv_plot_image', 'cv_plot_keypoints', 'expand_mask',
           'get_color_pallete', 'plot_bbox', 'plot_image', 'plot_keypoints', 'plot_mask', 'plot_mxboard',
           'plot_network']

__getattr__ = aliases.children(__name__)
