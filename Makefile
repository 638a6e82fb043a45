# Conventional entry points; the scripts hold the logic.
PREFIX ?= /usr/local

.PHONY: install test docs check-static-binary

install:
	scripts/install "$(PREFIX)"

test:
	scripts/test

docs:
	scripts/docs

check-static-binary:
	scripts/check-static-binary
