package io.crater.identity;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * On the first start (no users yet) creates the platform administrator with a random password, stores only
 * its hash, and leaves the credentials once for the person who started Crater: printed at start and in
 * {@code $CRATER_HOME/initial-admin.txt} (mode 600).
 */
@ApplicationScoped
public class InitialAdmin {

    private static final Logger LOG = Logger.getLogger(InitialAdmin.class);
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

    /** Credentials created by this start. */
    public record Login(String username, String password) {}

    @Inject
    UserService users;

    @Inject
    AuthConfig config;

    @ConfigProperty(name = "crater.home")
    String home;

    private volatile Login created;

    void onStart(@Observes @Priority(20) StartupEvent event) throws Throwable {
        String username = config.initialAdminUsername();
        String password = randomPassword();
        String hash = PasswordHasher.hash(password);
        Boolean inserted =
                VertxContextSupport.subscribeAndAwait(() -> users.createFirstAdmin(username, password, hash));
        if (Boolean.TRUE.equals(inserted)) {
            created = new Login(username, password);
            write(created);
            LOG.infof("created the platform administrator '%s'", username);
        }
    }

    private void write(Login login) throws IOException {
        Path file = credentialsFile();
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(
                file,
                "username: " + login.username() + "\npassword: " + login.password() + "\n",
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    public Path credentialsFile() {
        return Path.of(home).resolve("initial-admin.txt");
    }

    /** The credentials, when this start created the administrator. */
    public Optional<Login> firstLogin() {
        return Optional.ofNullable(created);
    }

    private static String randomPassword() {
        SecureRandom random = new SecureRandom();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
