#!/bin/sh
echo "cli tests: placeholder"
