package io.crater.credential;

import io.crater.cluster.ClusterConfig;
import io.crater.platform.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The key credential values are sealed with, kept apart from the database that holds them (a dump of the
 * database alone reveals no value). {@code crater.credentials.key} ({@code CRATER_CREDENTIALS_KEY}: 32 bytes in
 * base64, given from a Kubernetes Secret in a cluster) wins; otherwise the embedded default keeps it in
 * {@code $CRATER_HOME/credentials.key} (mode 600), made on first use. In cluster mode without a key the
 * credentials API answers 503: a key made by one replica would be unknown to the others. Losing the key makes
 * the stored values unreadable; they have to be stored again.
 */
@ApplicationScoped
class CredentialKeys {

    private static final Logger LOG = Logger.getLogger(CredentialKeys.class);

    @ConfigProperty(name = "crater.credentials.key")
    Optional<String> configured;

    @ConfigProperty(name = "crater.home")
    String home;

    @Inject
    ClusterConfig cluster;

    private volatile CredentialCipher cipher;

    /** The cipher of this server's key; 503 {@code CredentialsKeyMissing} when none is given in cluster mode. */
    CredentialCipher cipher() {
        CredentialCipher c = cipher;
        if (c == null) {
            synchronized (this) {
                if (cipher == null) {
                    cipher = new CredentialCipher(load());
                }
                c = cipher;
            }
        }
        return c;
    }

    private byte[] load() {
        if (configured.isPresent() && !configured.get().isBlank()) {
            return decode(configured.get().trim(), "crater.credentials.key");
        }
        if ("kubernetes".equals(cluster.mode())) {
            LOG.error("crater.credentials.key (CRATER_CREDENTIALS_KEY) is not set: credentials cannot be stored");
            throw new ApiException(
                    503,
                    "CredentialsKeyMissing",
                    "Service unavailable",
                    "credentials are unavailable: the server has no credentials key (CRATER_CREDENTIALS_KEY)",
                    null,
                    null,
                    null);
        }
        return fromFile(Path.of(home).resolve("credentials.key"));
    }

    /** Reads the key file, or makes it (mode 600) when there is none yet. */
    static byte[] fromFile(Path file) {
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(file.getParent());
                try {
                    Files.createFile(
                            file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                    Files.writeString(file, Base64.getEncoder().encodeToString(CredentialCipher.newKey()) + "\n");
                    LOG.infof("made the credentials key %s: keep it with the database's backups", file);
                } catch (FileAlreadyExistsException raced) {
                    // another start made it first: read that one
                }
            }
            return decode(Files.readString(file).trim(), file.toString());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or make the credentials key " + file, e);
        }
    }

    private static byte[] decode(String base64, String where) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + " is not base64");
        }
        if (key.length != CredentialCipher.KEY_BYTES) {
            throw new IllegalStateException(where + " must hold " + CredentialCipher.KEY_BYTES + " bytes in base64");
        }
        return key;
    }
}
