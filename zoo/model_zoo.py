"""The Gluon spelling: `from gluonzoo import model_zoo; model_zoo.get_model(...)`."""
from .registry import get_model, get_weights, list_models, register_model

get_model_list = list_models  # GluonCV's name

__all__ = ['get_model', 'get_weights', 'list_models', 'register_model', 'get_model_list']
