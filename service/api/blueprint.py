"""flask-smorest's Blueprint with the API's parser (orjson; 400 for a wrong shape)."""
from flask_smorest import Blueprint as SmorestBlueprint

from .jsonio import JsonParser


class Blueprint(SmorestBlueprint):
    ARGUMENTS_PARSER = JsonParser()
