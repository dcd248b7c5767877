package io.crater.interactive;

import io.crater.identity.Caller;
import io.crater.identity.TokenService;
import io.crater.job.PodAccess;
import io.crater.platform.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import java.security.PublicKey;
import java.util.Optional;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.digest.BuiltinDigests;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.server.auth.pubkey.PublickeyAuthenticator;
import org.apache.sshd.server.session.ServerSession;
import org.jboss.logging.Logger;

/**
 * Who an SSH connection is and where it goes. Public-key authentication succeeds only with a key the named user
 * registered (an unknown key, or another user's key, is the usual "Permission denied (publickey)"). The job part
 * of the login is then checked as the console checks it ({@link PodAccess}); when it fails, the connection is
 * let in only to be told why on its first channel, since an SSH client shows nothing the server says during a
 * refused authentication.
 */
@ApplicationScoped
public class SshEntries implements PublickeyAuthenticator {

    private static final Logger LOG = Logger.getLogger(SshEntries.class);
    private static final AttributeRepository.AttributeKey<Entry> ENTRY = new AttributeRepository.AttributeKey<>();

    /**
     * An authenticated connection: the user, the pod (or why not), and the session's record.
     *
     * @param refusal why the job cannot be reached, or null
     */
    public record Entry(
            TokenService.TokenUser user,
            String slug,
            SshLogin login,
            PodAccess.Target target,
            String refusal,
            SessionLog.Open log) {}

    @Inject
    PodAccess access;

    @Inject
    SessionLog sessionLog;

    @Inject
    io.crater.identity.SshKeys keys;

    /** The connection's entry, once authenticated. */
    Entry of(Session session) {
        return session.getAttribute(ENTRY);
    }

    /** A key accepted for a login, before the client has proven it holds the private key. */
    private record Accepted(String username, String fingerprint, Entry entry) {}

    private static final AttributeRepository.AttributeKey<Accepted> ACCEPTED = new AttributeRepository.AttributeKey<>();

    /**
     * Whether {@code key} is one the named user registered. OpenSSH asks this twice per login, first without a
     * signature (may I use this key?) and then with one, so the answer is kept on the connection and the database is
     * asked once. The job check runs here too, so that the refusal can be told later; the session's record is written
     * only once the signature is verified ({@link #authenticated}).
     */
    @Override
    public boolean authenticate(String username, PublicKey key, ServerSession session) {
        Optional<SshLogin> login = SshLogin.parse(username);
        if (login.isEmpty()) {
            return false;
        }
        String fingerprint = KeyUtils.getFingerPrint(BuiltinDigests.sha256, key);
        Accepted known = session.getAttribute(ACCEPTED);
        if (known != null
                && known.username().equals(username)
                && known.fingerprint().equals(fingerprint)) {
            return true;
        }
        String client = clientOf(session);
        try {
            Entry entry = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> keys.owner(
                            fingerprint, login.get().user())
                    .flatMap(owner -> owner.isEmpty()
                            ? io.smallrye.mutiny.Uni.createFrom().<Entry>nullItem()
                            : check(owner.get().user(), owner.get().slug(), login.get(), client))));
            if (entry == null) {
                LOG.infof("ssh: key %s refused for %s from %s", fingerprint, username, client);
                return false;
            }
            session.setAttribute(ACCEPTED, new Accepted(username, fingerprint, entry));
            return true;
        } catch (Throwable e) {
            LOG.warnf("ssh: authentication of %s failed: %s", username, e.getMessage());
            return false;
        }
    }

    /** The job check: the pod, or why not. */
    private io.smallrye.mutiny.Uni<Entry> check(
            TokenService.TokenUser user, String slug, SshLogin login, String client) {
        return access.resolveShell(login.job(), login.taskIndex(), new Caller(user, client), false)
                .map(target -> new Entry(user, slug, login, target, null, null))
                .onFailure(ApiException.class)
                .recoverWithItem(e -> new Entry(user, slug, login, null, e.getMessage(), null));
    }

    /**
     * The client proved it holds the key it was accepted with: the key's last use and, when the job can be reached,
     * the session's record are written, and the connection gets its entry.
     */
    void authenticated(ServerSession session) {
        Accepted accepted = session.getAttribute(ACCEPTED);
        if (accepted == null) {
            return;
        }
        Entry e = accepted.entry();
        try {
            Entry entry = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(
                            () -> keys.used(accepted.fingerprint()))
                    .flatMap(n -> e.target() == null
                            ? io.smallrye.mutiny.Uni.createFrom().item(e)
                            : sessionLog
                                    .start("ssh", e.user().id(), e.target(), clientOf(session))
                                    .map(log -> new Entry(e.user(), e.slug(), e.login(), e.target(), null, log))));
            session.setAttribute(ENTRY, entry);
        } catch (Throwable x) {
            LOG.warnf("ssh: recording the session of %s failed: %s", accepted.username(), x.getMessage());
            session.setAttribute(
                    ENTRY,
                    new Entry(
                            e.user(),
                            e.slug(),
                            e.login(),
                            null,
                            "Crater could not record this session; try again",
                            null));
        }
    }

    private static String clientOf(ServerSession session) {
        return session.getClientAddress() instanceof InetSocketAddress a
                ? a.getAddress().getHostAddress()
                : "unknown";
    }

    /** The connection ended: its record gets its end and bytes. */
    void closed(Session session) {
        Entry e = of(session);
        if (e != null && e.log() != null) {
            sessionLog.end(e.log());
        }
    }
}
