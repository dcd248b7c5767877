#!/bin/sh
# Installs Crater's command-line client @VERSION@ from @SERVER@ for this user:
#   the jar and its launcher in ${XDG_DATA_HOME:-~/.local/share}/crater, the command in ${CRATER_BIN:-~/.local/bin}.
# Needs Java 17 or newer and curl or wget. Run again to update.
set -eu
server='@SERVER@'
expected='@SHA256@'
share="${XDG_DATA_HOME:-$HOME/.local/share}/crater"
bin="${CRATER_BIN:-$HOME/.local/bin}"

fail() { echo "crater install: $*" >&2; exit 1; }

command -v java >/dev/null 2>&1 || fail "Java 17 or newer is needed (e.g. https://adoptium.net), and 'java' on the PATH"
spec=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
case "$spec" in
  1.*|9|1[0-6]) fail "Java $spec is too old: 17 or newer is needed" ;;
esac

fetch() {
  if command -v curl >/dev/null 2>&1; then curl -fsSL "$1" -o "$2"
  elif command -v wget >/dev/null 2>&1; then wget -q -O "$2" "$1"
  else fail "curl or wget is needed"; fi
}

mkdir -p "$share" "$bin"
fetch "$server/cli/crater.jar" "$share/crater.jar.part" || fail "cannot download $server/cli/crater.jar"
if command -v sha256sum >/dev/null 2>&1; then actual=$(sha256sum "$share/crater.jar.part" | cut -d' ' -f1)
else actual=$(shasum -a 256 "$share/crater.jar.part" | cut -d' ' -f1); fi
if [ "$actual" != "$expected" ]; then
  rm -f "$share/crater.jar.part"
  fail "the download is damaged (sha256 $actual, expected $expected)"
fi
fetch "$server/cli/crater-cli" "$share/crater-cli.part" || fail "cannot download $server/cli/crater-cli"
mv "$share/crater.jar.part" "$share/crater.jar"
mv "$share/crater-cli.part" "$share/crater-cli"
chmod 755 "$share/crater-cli"
rm -f "$share/crater.jsa"
cat > "$bin/crater" <<EOS
#!/bin/sh
# Crater's command-line client, installed from $server.
exec "$share/crater-cli" "$share/crater.jar" "\$@"
EOS
chmod 755 "$bin/crater"
"$bin/crater" --version >/dev/null 2>&1 || fail "the client does not start: run $bin/crater --version"
echo "Installed $("$bin/crater" --version) as $bin/crater."
case ":$PATH:" in
  *":$bin:"*) ;;
  *) echo "Add it to your PATH:  export PATH=\"$bin:\$PATH\"" ;;
esac
echo "Next:  crater login $server"
