"""Runs at power-up on the hub (MicroPython): build the hub from hub_config and scan forever."""

import hub_config
from sekihub.board import main

main(hub_config)
