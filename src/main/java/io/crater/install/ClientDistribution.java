package io.crater.install;

import io.crater.CraterMain;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The command-line client this server hands out: its jar ({@code quarkus-app/cli/crater.jar}, built beside the
 * server by {@code mvn package}, or {@code crater.cli.jar}), the launcher that starts it quickly, and the install
 * script that puts both on a laptop with nothing but a JDK.
 */
@ApplicationScoped
public class ClientDistribution {

    /** The jar as served, with its digest (the install script checks it). */
    public record Jar(Path path, long size, String sha256, long modified) {}

    @ConfigProperty(name = "crater.cli.jar")
    Optional<String> configured;

    private volatile Jar cached;

    /** The jar, or empty when this server was started without one (from classes, in development). */
    public Optional<Jar> jar() {
        Path p = location();
        if (p == null || !Files.isRegularFile(p)) {
            return Optional.empty();
        }
        try {
            long modified = Files.getLastModifiedTime(p).toMillis();
            Jar c = cached;
            if (c == null || !c.path().equals(p) || c.modified() != modified) {
                c = new Jar(p, Files.size(p), sha256(p), modified);
                cached = c;
            }
            return Optional.of(c);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The launcher script (bin/crater-cli in the repository, bundled as a resource). */
    public String launcher() {
        return resource("/io/crater/install/crater-cli");
    }

    /** The install script for a server reached at {@code server}. */
    public String installScript(String server, Jar jar) {
        return resource("/io/crater/install/install.sh")
                .replace("@SERVER@", server)
                .replace("@SHA256@", jar.sha256())
                .replace("@VERSION@", version());
    }

    public String version() {
        String v = CraterMain.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    private Path location() {
        if (configured.isPresent()) {
            return Path.of(configured.get());
        }
        try {
            // quarkus-app/app/crater-<version>.jar → quarkus-app/cli/crater.jar; target/classes → target/quarkus-app/…
            Path code = Path.of(CraterMain.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            Path base = code.getParent();
            if (base == null) {
                return null;
            }
            Path packaged = base.getParent() == null ? null : base.getParent().resolve("cli/crater.jar");
            if (packaged != null && Files.exists(packaged)) {
                return packaged;
            }
            return base.resolve("quarkus-app/cli/crater.jar");
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    private static String resource(String name) {
        try (InputStream in = ClientDistribution.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
