package io.crater.interactive;

import io.crater.identity.Caller;
import io.crater.identity.TokenService;
import io.crater.job.PodAccess;
import io.crater.platform.ApiException;
import io.crater.platform.Sql;
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

    /** The connection's entry, once authenticated. */
    Entry of(Session session) {
        return session.getAttribute(ENTRY);
    }

    @Override
    public boolean authenticate(String username, PublicKey key, ServerSession session) {
        Optional<SshLogin> login = SshLogin.parse(username);
        if (login.isEmpty()) {
            return false;
        }
        String fingerprint = KeyUtils.getFingerPrint(BuiltinDigests.sha256, key);
        String client = session.getClientAddress() instanceof InetSocketAddress a
                ? a.getAddress().getHostAddress()
                : "unknown";
        try {
            Entry entry = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.row(
                            "SELECT u.id, u.username, u.display_name, u.role, u.slug FROM ssh_keys k JOIN users u ON u.id = k.user_id"
                                    + " WHERE k.fingerprint = ?1 AND lower(u.username) = lower(?2) AND NOT u.disabled",
                            fingerprint,
                            login.get().user())
                    .flatMap(row -> {
                        if (row.isEmpty()) {
                            return io.smallrye.mutiny.Uni.createFrom().nullItem();
                        }
                        Object[] r = row.get();
                        var user = new TokenService.TokenUser(
                                Sql.longOf(r[0]), (String) r[1], (String) r[2], (String) r[3]);
                        return Panache.withTransaction(() -> Sql.update(
                                        "UPDATE ssh_keys SET last_used_at = now() WHERE fingerprint = ?1", fingerprint))
                                .flatMap(n -> enter(user, (String) r[4], login.get(), client));
                    })));
            if (entry == null) {
                LOG.infof("ssh: key %s refused for %s from %s", fingerprint, username, client);
                return false;
            }
            session.setAttribute(ENTRY, entry);
            return true;
        } catch (Throwable e) {
            LOG.warnf("ssh: authentication of %s failed: %s", username, e.getMessage());
            return false;
        }
    }

    /** The job check and, when it passes, the session's record. */
    private io.smallrye.mutiny.Uni<Entry> enter(
            TokenService.TokenUser user, String slug, SshLogin login, String client) {
        return access.resolve(login.job(), login.taskIndex(), new Caller(user, client), false)
                .flatMap(target -> sessionLog
                        .start("ssh", user.id(), target, client)
                        .map(log -> new Entry(user, slug, login, target, null, log)))
                .onFailure(ApiException.class)
                .recoverWithItem(e -> new Entry(user, slug, login, null, e.getMessage(), null));
    }

    /** The connection ended: its record gets its end and bytes. */
    void closed(Session session) {
        Entry e = of(session);
        if (e != null && e.log() != null) {
            sessionLog.end(e.log());
        }
    }
}
