"""stub"""
from slack_bolt.async_app import AsyncApp

from bot.services import BotServices


def register(app: AsyncApp, services: BotServices) -> None:
    """-"""
