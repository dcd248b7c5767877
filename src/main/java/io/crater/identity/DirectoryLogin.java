package io.crater.identity;

import io.crater.platform.Actor;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Sql;
import io.crater.policy.DirectoryProfile;
import io.crater.policy.DirectorySync;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Sign-in through the directory: the bind runs on a worker thread, outside any transaction; then, in one
 * transaction, the user is found by their link ({@code external_identities}), or created on their first sign-in
 * with the directory's UID, GID, name and e-mail, and their group mappings are applied.
 */
@ApplicationScoped
class DirectoryLogin {

    private static final Logger LOG = Logger.getLogger(DirectoryLogin.class);

    @Inject
    LdapDirectory directory;

    @Inject
    UserService users;

    @Inject
    UserRepository repository;

    @Inject
    DirectoryGrants grants;

    @Inject
    AuditTrail audit;

    @Inject
    Vertx vertx;

    boolean enabled() {
        return directory.enabled();
    }

    /** Whether the user signs in through this directory (is linked to it), in the caller's session. */
    Uni<Boolean> linked(long userId) {
        return Sql.count(
                        "SELECT count(*) FROM external_identities WHERE user_id = ?1 AND provider = ?2",
                        userId,
                        directory.source())
                .map(n -> n > 0);
    }

    /**
     * The signed-in user, or null when the directory says the username or password is wrong. Fails with 503
     * {@code DirectoryUnavailable} when the directory cannot answer, and 409 when the entry cannot become a user.
     */
    Uni<UserEntity> signIn(String typed, String password, String address) {
        return vertx.executeBlocking(
                        Uni.createFrom().item(() -> directory.client().authenticate(typed, password)), false)
                .onFailure(LdapClient.Unavailable.class)
                .transform(e -> {
                    LOG.warnf("directory sign-in of '%s' failed: %s", typed, e.getMessage());
                    return unavailable();
                })
                .flatMap(found -> found.isEmpty()
                        ? Uni.createFrom().nullItem()
                        : Panache.withTransaction(() -> provision(found.get(), typed, address)));
    }

    static ApiException unavailable() {
        return new ApiException(
                503,
                "DirectoryUnavailable",
                "Service unavailable",
                "the directory cannot be reached; try again later (local users still sign in with their password)",
                null,
                null,
                null);
    }

    private Uni<UserEntity> provision(LdapClient.Found found, String typed, String address) {
        DirectoryProfile.Outcome outcome = directory.profile().map(found.entry(), typed);
        if (outcome.user() == null) {
            return Uni.createFrom().failure(ApiException.conflict("DirectoryEntryUnusable", outcome.problem()));
        }
        DirectoryProfile.Mapped m = outcome.user();
        Actor actor = new Actor(null, m.username(), address, null);
        return Sql.longs(
                        "SELECT user_id FROM external_identities WHERE provider = ?1 AND lower(subject) = lower(?2)",
                        directory.source(),
                        m.dn())
                .flatMap(link -> link.isEmpty() ? firstSignIn(m, actor) : refresh(link.get(0), m))
                .flatMap(id ->
                        applyGroups(id, m.username(), found.groups(), actor).replaceWith(id))
                .flatMap(id -> repository.findById(id));
    }

    /** A linked user: the directory's name and e-mail replace the stored ones. */
    private Uni<Long> refresh(long userId, DirectoryProfile.Mapped m) {
        return Sql.update(
                        "UPDATE users SET display_name = ?2, email = ?3, updated_at = now() WHERE id = ?1",
                        userId,
                        m.displayName(),
                        m.email() == null ? "" : m.email())
                .call(x -> m.email() == null
                        ? Sql.update("UPDATE users SET email = NULL WHERE id = ?1", userId)
                        : Uni.createFrom().item(0))
                .replaceWith(userId);
    }

    private Uni<Long> firstSignIn(DirectoryProfile.Mapped m, Actor actor) {
        return repository.findByUsername(m.username()).flatMap(local -> {
            if (local != null && !directory.config().linkExisting()) {
                return Uni.createFrom()
                        .failure(ApiException.conflict(
                                "LocalUserExists",
                                "a local user '" + m.username() + "' exists already; an administrator must rename it"
                                        + " or allow linking it to the directory (crater.ldap.link-existing)"));
            }
            Uni<Long> user = local != null
                    ? Uni.createFrom().item(local.id)
                    : users.insert(
                                    new NewUser(m.username(), m.displayName(), m.email(), "user", null, null, false),
                                    actor)
                            .call(id -> ids(id, m));
            return user.call(id -> Sql.update(
                                    "INSERT INTO external_identities (user_id, provider, subject) VALUES (?1, ?2, ?3)",
                                    id,
                                    directory.source(),
                                    m.dn())
                            .flatMap(x -> audit.record(
                                    actor,
                                    "user.link",
                                    "user",
                                    m.username(),
                                    null,
                                    Map.of(
                                            "provider",
                                            directory.source(),
                                            "subject",
                                            m.dn(),
                                            "created",
                                            local == null))))
                    .call(id -> local == null ? Uni.createFrom().item(0) : linkLocal(id, m));
        });
    }

    /**
     * A local user linked to the directory: from now on the directory decides, so the local password goes (a user
     * disabled in the directory must not sign in with it); the UID stays, since their files carry it.
     */
    private Uni<Integer> linkLocal(long id, DirectoryProfile.Mapped m) {
        return Sql.update("UPDATE users SET password_hash = NULL, updated_at = now() WHERE id = ?1", id)
                .flatMap(x -> m.gid() == null
                        ? Uni.createFrom().item(0)
                        : Sql.update("UPDATE users SET gid = ?2 WHERE id = ?1", id, m.gid()));
    }

    /** The directory's UID and GID for a new user; a UID another user has already is refused. */
    private Uni<Integer> ids(long id, DirectoryProfile.Mapped m) {
        Uni<Integer> uid = m.uid() == null
                ? Uni.createFrom().item(0)
                : Sql.count("SELECT count(*) FROM users WHERE uid = ?1 AND id <> ?2", m.uid(), id)
                        .flatMap(n -> {
                            if (n > 0) {
                                return Uni.createFrom()
                                        .failure(ApiException.conflict(
                                                "UidTaken",
                                                "the directory gives '" + m.username() + "' UID " + m.uid()
                                                        + ", which another user has already"));
                            }
                            return Sql.update("UPDATE users SET uid = ?2 WHERE id = ?1", id, m.uid());
                        });
        return uid.flatMap(x -> m.gid() == null
                ? Uni.createFrom().item(0)
                : Sql.update("UPDATE users SET gid = ?2 WHERE id = ?1", id, m.gid()));
    }

    /** Brings the user's directory-granted memberships in line with their groups, in the caller's transaction. */
    Uni<Map<DirectorySync.Kind, Integer>> applyGroups(long userId, String username, List<String> groups, Actor actor) {
        return grants.bringInLine(directory.source(), directory.mappings(), userId, username, groups, actor);
    }
}
