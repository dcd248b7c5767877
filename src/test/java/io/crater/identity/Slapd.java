package io.crater.identity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real OpenLDAP server (Debian's {@code slapd}, installed by {@code make ldap}) started by a test on free ports
 * of 127.0.0.1, with a generated old-style {@code slapd.conf}, an MDB database in a temporary folder, the suffix
 * {@value #SUFFIX} and optionally TLS ({@code ldaps://} and StartTLS with a self-signed certificate for
 * 127.0.0.1). It runs in the foreground ({@code -d 0}) so that {@link #stop()} ends it; {@link #close()} also
 * deletes the folder.
 */
public final class Slapd implements AutoCloseable {

    public static final String SUFFIX = "dc=example,dc=org";
    public static final String ROOT_DN = "cn=admin," + SUFFIX;
    public static final String ROOT_PW = "root-secret";

    private final Path dir;
    private final int port;
    private final int tlsPort;
    private final boolean tls;
    private Process process;

    private Slapd(Path dir, int port, int tlsPort, boolean tls) {
        this.dir = dir;
        this.port = port;
        this.tlsPort = tlsPort;
        this.tls = tls;
    }

    /** Starts slapd with the base entries ({@code ou=people}, {@code ou=groups}) and then the given LDIF. */
    public static Slapd start(String ldif, boolean tls) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("crater-slapd");
        Files.createDirectories(dir.resolve("db"));
        Slapd s = new Slapd(dir, freePort(), freePort(), tls);
        if (tls) {
            s.certificate();
        }
        Files.writeString(dir.resolve("slapd.conf"), s.config());
        s.start();
        s.ldap("ldapadd", BASE + ldif);
        return s;
    }

    static final String BASE = """
            dn: dc=example,dc=org
            objectClass: dcObject
            objectClass: organization
            o: Example
            dc: example

            dn: ou=people,dc=example,dc=org
            objectClass: organizationalUnit
            ou: people

            dn: ou=groups,dc=example,dc=org
            objectClass: organizationalUnit
            ou: groups

            """;

    private String config() {
        StringBuilder c = new StringBuilder();
        for (String schema : List.of("core", "cosine", "inetorgperson", "nis")) {
            c.append("include /etc/ldap/schema/").append(schema).append(".schema\n");
        }
        c.append("pidfile ").append(dir.resolve("slapd.pid")).append('\n');
        c.append("modulepath /usr/lib/ldap\nmoduleload back_mdb\n");
        if (tls) {
            c.append("TLSCertificateFile ").append(dir.resolve("cert.pem")).append('\n');
            c.append("TLSCertificateKeyFile ").append(dir.resolve("key.pem")).append('\n');
        }
        c.append("database mdb\nmaxsize 104857600\n");
        c.append("suffix \"").append(SUFFIX).append("\"\n");
        c.append("rootdn \"").append(ROOT_DN).append("\"\n");
        c.append("rootpw ").append(ROOT_PW).append('\n');
        c.append("directory ").append(dir.resolve("db")).append('\n');
        if (tls) {
            c.append("security simple_bind=128\n"); // a password is accepted only over TLS
        }
        c.append("access to attrs=userPassword by anonymous auth by self write by * none\n");
        c.append("access to * by * read\n");
        return c.toString();
    }

    /** A self-signed certificate for 127.0.0.1 and localhost, which is also the CA file clients trust. */
    private void certificate() throws IOException, InterruptedException {
        run(
                List.of(
                        "openssl",
                        "req",
                        "-x509",
                        "-newkey",
                        "rsa:2048",
                        "-nodes",
                        "-days",
                        "2",
                        "-subj",
                        "/CN=127.0.0.1",
                        "-addext",
                        "subjectAltName=IP:127.0.0.1,DNS:localhost",
                        "-keyout",
                        dir.resolve("key.pem").toString(),
                        "-out",
                        dir.resolve("cert.pem").toString()),
                null);
    }

    /** (Re)starts the server on the same ports and data and waits until it answers. */
    public void start() throws IOException, InterruptedException {
        String urls = "ldap://127.0.0.1:" + port + "/" + (tls ? " ldaps://127.0.0.1:" + tlsPort + "/" : "");
        process = new ProcessBuilder(
                        "/usr/sbin/slapd", "-f", dir.resolve("slapd.conf").toString(), "-h", urls, "-d", "0")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("slapd.log").toFile()))
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!answers(port)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String log = Files.readString(dir.resolve("slapd.log"));
                stop();
                throw new IllegalStateException("slapd did not start: " + log);
            }
            Thread.sleep(100);
        }
    }

    /** Stops the server (its data stays for {@link #start()}). */
    public void stop() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Applies an LDIF with {@code ldapmodify} as the root DN (changetype records). */
    public void modify(String ldif) throws IOException, InterruptedException {
        ldap("ldapmodify", ldif);
    }

    private void ldap(String tool, String ldif) throws IOException, InterruptedException {
        run(List.of(tool, "-x", "-H", tls ? ldapsUrl() : url(), "-D", ROOT_DN, "-w", ROOT_PW), ldif);
    }

    private void run(List<String> command, String input) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
        if (tls) {
            pb.environment().put("LDAPTLS_CACERT", caFile().toString());
        }
        Process p = pb.start();
        if (input != null) {
            p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(command.get(0) + " failed: " + out);
        }
    }

    public String url() {
        return "ldap://127.0.0.1:" + port;
    }

    public String ldapsUrl() {
        return "ldaps://127.0.0.1:" + tlsPort;
    }

    /** The PEM file clients trust for TLS. */
    public Path caFile() {
        return dir.resolve("cert.pem");
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean answers(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An inetOrgPerson + posixAccount entry under {@code ou=people}. */
    public static String person(String uid, String name, String mail, int uidNumber, int gidNumber, String password) {
        return "dn: uid=" + uid + ",ou=people," + SUFFIX + "\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\n"
                + "uid: " + uid + "\ncn: " + name + "\nsn: " + name.substring(name.lastIndexOf(' ') + 1) + "\n"
                + (mail == null ? "" : "mail: " + mail + "\n") + "uidNumber: " + uidNumber + "\ngidNumber: "
                + gidNumber + "\nhomeDirectory: /home/" + uid + "\nuserPassword: " + password + "\n\n";
    }

    /** The DN of a person made by {@link #person}. */
    public static String dn(String uid) {
        return "uid=" + uid + ",ou=people," + SUFFIX;
    }
}
