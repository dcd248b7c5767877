package io.crater.identity;

import io.crater.platform.Actor;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Page;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Users: creation (with their personal account), changes, password resets. */
@ApplicationScoped
public class UserService {

    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();
    static final String COLUMNS =
            "u.id, u.username, u.slug, u.uid, u.display_name, u.email, u.role, u.disabled, u.created_at,"
                    + " u.default_account_id, u.gid";
    static final String FROM = " FROM users u";

    /**
     * Create a user; without a password one is generated and returned once.
     *
     * @param accounts team accounts the user joins in the same transaction, with their roles (null: none)
     */
    public record CreateUser(
            String username,
            String displayName,
            String email,
            String password,
            String role,
            List<UserCreated.AccountRole> accounts) {

        public CreateUser(String username, String displayName, String email, String password, String role) {
            this(username, displayName, email, password, role, null);
        }
    }

    /** A created user and, when generated, their password. */
    @Schema(name = "UserCreated")
    public record Created(UserView user, String password) {}

    /** Change a user (platform admins). */
    public record UpdateUser(String displayName, String email, String role, Boolean disabled) {}

    @Inject
    jakarta.enterprise.inject.Instance<UserCreated> created;

    @Inject
    AuditTrail audit;

    @Inject
    UserAccounts userAccounts;

    @Inject
    UserDirectory directory;

    @Inject
    GovernanceConfig config;

    @Inject
    Vertx vertx;

    /** Checks the fields of a new user; errors carry {@code prefix} before each field name. */
    NewUser check(CreateUser req, String prefix, List<Problem.FieldError> errors) {
        String username = Usernames.normalize(req.username());
        String bad = Usernames.problem(username);
        if (bad != null) {
            errors.add(new Problem.FieldError(prefix + "username", bad));
        }
        String display = req.displayName() == null || req.displayName().isBlank()
                ? username
                : req.displayName().trim();
        if (display != null && display.length() > 200) {
            errors.add(new Problem.FieldError(prefix + "displayName", "at most 200 characters"));
        }
        String email = req.email() == null || req.email().isBlank()
                ? null
                : req.email().trim();
        if (email != null && (!email.matches("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$") || email.length() > 254)) {
            errors.add(new Problem.FieldError(prefix + "email", "not an e-mail address"));
        }
        String role = req.role() == null || req.role().isBlank() ? "user" : req.role();
        if (!Set.of("admin", "user").contains(role)) {
            errors.add(new Problem.FieldError(prefix + "role", "admin or user"));
        }
        boolean generated = req.password() == null || req.password().isEmpty();
        String password = generated ? randomPassword() : req.password();
        if (!generated && password.length() < config.minPasswordLength()) {
            errors.add(new Problem.FieldError(
                    prefix + "password", "at least " + config.minPasswordLength() + " characters"));
        }
        return new NewUser(username, display, email, role, password, null, generated);
    }

    public Uni<Created> create(CreateUser req, Caller caller) {
        requireAdmin(caller);
        List<Problem.FieldError> errors = new ArrayList<>();
        List<UserCreated.AccountRole> joined = req == null || req.accounts() == null ? List.of() : req.accounts();
        NewUser u = check(req == null ? new CreateUser(null, null, null, null, null) : req, "", errors)
                .withAccounts(joined);
        errors.addAll(UserCreated.check(joined));
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidUser", "the user cannot be created as given", errors));
        }
        return hashAndInsert(u, caller.actor(null))
                .flatMap(id -> get(id))
                .map(view -> new Created(view, u.generated() ? u.password() : null));
    }

    /** Self sign-up, when enabled: a user with the role {@code user} and a personal account. */
    public Uni<UserView> signup(CreateUser req, String clientAddress) {
        if (!config.selfSignup()) {
            return Uni.createFrom()
                    .failure(ApiException.forbidden(
                            "SignupDisabled", "self sign-up is turned off; ask a platform administrator"));
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        CreateUser asUser = req == null
                ? new CreateUser(null, null, null, null, null)
                : new CreateUser(req.username(), req.displayName(), req.email(), req.password(), "user");
        if (asUser.password() == null || asUser.password().isEmpty()) {
            errors.add(new Problem.FieldError("password", "required"));
        }
        NewUser u = check(asUser, "", errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidUser", "the user cannot be created as given", errors));
        }
        Actor actor = new Actor(null, u.username(), clientAddress, null);
        return hashAndInsert(u, actor).flatMap(this::get);
    }

    /** Creates the first platform administrator when there is no user yet; returns whether it did. */
    public Uni<Boolean> createFirstAdmin(String username, String password, String hash) {
        NewUser u = new NewUser(username, "Platform administrator", null, "admin", password, hash, true);
        // Replicas starting at once on an empty database: the first to take the lock creates the administrator,
        // the others find it there.
        return Panache.withTransaction(() -> Sql.rows(
                        "SELECT 1 FROM pg_advisory_xact_lock(hashtext('crater.initial-admin'))")
                .flatMap(locked -> Sql.count("SELECT count(*) FROM users"))
                .flatMap(n -> n > 0
                        ? Uni.createFrom().item(false)
                        : insert(u, Actor.system()).replaceWith(true)));
    }

    /** Hashes the password off the event loop, then inserts the user unless the name is taken (409). */
    private Uni<Long> hashAndInsert(NewUser u, Actor actor) {
        return hash(u).flatMap(h ->
                Panache.withTransaction(() -> exists(h.username()).flatMap(taken -> {
                    if (taken) {
                        throw new ApiException(
                                409,
                                "UserExists",
                                "Conflict",
                                "a user '" + h.username() + "' exists already (usernames ignore case)",
                                null,
                                null,
                                null);
                    }
                    return insert(h, actor);
                })));
    }

    Uni<NewUser> hash(NewUser u) {
        return vertx.executeBlocking(Uni.createFrom()
                .item(() -> new NewUser(
                        u.username(),
                        u.displayName(),
                        u.email(),
                        u.role(),
                        u.password(),
                        PasswordHasher.hash(u.password()),
                        u.generated(),
                        u.accounts())));
    }

    Uni<Boolean> exists(String username) {
        return Sql.count("SELECT count(*) FROM users WHERE lower(username) = lower(?1)", username)
                .map(n -> n > 0);
    }

    /** Inserts the user, their personal account and the audit record, in the caller's transaction. */
    Uni<Long> insert(NewUser u, Actor actor) {
        return uniqueSlug(Usernames.slugBase(u.username())).flatMap(slug -> {
            String sql =
                    "INSERT INTO users (username, slug, display_name, email, role, password_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id";
            String email = u.email() == null ? "" : u.email();
            return Sql.insertReturningId(sql, u.username(), slug, u.displayName(), email, u.role(), u.hash())
                    .call(id -> u.email() == null
                            ? Sql.update("UPDATE users SET email = NULL WHERE id = ?1", id)
                            : Uni.createFrom().item(0))
                    .call(id -> io.crater.platform.Unis.sequentially(
                            created, c -> c.userCreated(id, u.username(), slug, u.displayName(), u.accounts(), actor)))
                    .call(id -> audit.record(
                            actor,
                            "user.create",
                            "user",
                            u.username(),
                            null,
                            Map.of("username", u.username(), "role", u.role(), "slug", slug)));
        });
    }

    private Uni<String> uniqueSlug(String base) {
        return Sql.strings("SELECT slug FROM users WHERE slug = ?1 OR slug LIKE ?2", base, base + "-%")
                .map(rows -> {
                    Set<String> taken = new java.util.HashSet<>(rows);
                    if (!taken.contains(base)) {
                        return base;
                    }
                    for (int i = 2; ; i++) {
                        if (!taken.contains(base + "-" + i)) {
                            return base + "-" + i;
                        }
                    }
                });
    }

    /** The usernames of users by id, in the caller's session (unknown ids are left out). */
    public Uni<java.util.Map<Long, String>> usernames(java.util.Collection<Long> ids) {
        return directory.usernames(ids);
    }

    public Uni<UserView> get(long id) {
        return Panache.withSession(() -> Sql.row("SELECT " + COLUMNS + FROM + " WHERE u.id = ?1", id)
                .flatMap(r -> view(r.orElseThrow(() -> ApiException.notFound("no such user")))));
    }

    /** The users of these rows with their default accounts' slugs, in the caller's session. */
    private Uni<List<UserView>> views(List<Object[]> rows) {
        return UserRows.views(rows, userAccounts);
    }

    private Uni<UserView> view(Object[] row) {
        return views(List.<Object[]>of(row)).map(v -> v.get(0));
    }

    Uni<UserView> byUsername(String username) {
        return Sql.row(
                        "SELECT " + COLUMNS + FROM + " WHERE lower(u.username) = lower(?1)",
                        username == null ? "" : username)
                .flatMap(r -> view(r.orElseThrow(() -> ApiException.notFound("no user '" + username + "'"))));
    }

    public Uni<UserView> find(String username, Caller caller) {
        requireAdmin(caller);
        return Panache.withSession(() -> byUsername(username));
    }

    public Uni<Page<UserView>> list(String q, String cursor, Integer limit, Caller caller) {
        requireAdmin(caller);
        int n = Page.limit(limit);
        long after = Page.afterId(cursor);
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + FROM + " WHERE u.id > ?1");
        List<Object> params = new ArrayList<>(List.of(after));
        if (q != null && !q.isBlank()) {
            params.add("%" + q.trim().toLowerCase() + "%");
            sql.append(
                    " AND (lower(u.username) LIKE ?2 OR lower(u.display_name) LIKE ?2 OR lower(coalesce(u.email, '')) LIKE ?2)");
        }
        sql.append(" ORDER BY u.id LIMIT ").append(n + 1);
        return Panache.withSession(() -> Sql.rows(sql.toString(), params.toArray())
                .flatMap(rows -> views(rows.stream().limit(n).toList())
                        .map(items -> Page.of(items, rows.size() > n, i -> i.id()))));
    }

    /** The user as a change leaves it. */
    private static UserView changed(UserView before, String display, String email, String role, boolean disabled) {
        return new UserView(
                before.id(),
                before.username(),
                before.slug(),
                before.uid(),
                display,
                email,
                role,
                disabled,
                before.createdAt(),
                before.defaultAccount(),
                before.gid());
    }

    /** The field errors of a change to a user, empty when it is sound. */
    private static List<Problem.FieldError> checkUpdate(UpdateUser req) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req == null) {
            errors.add(new Problem.FieldError("body", "required"));
        } else {
            if (req.displayName() != null
                    && (req.displayName().isBlank() || req.displayName().length() > 200)) {
                errors.add(new Problem.FieldError("displayName", "1 to 200 characters"));
            }
            if (req.email() != null
                    && !req.email().isEmpty()
                    && !req.email().matches("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$")) {
                errors.add(new Problem.FieldError("email", "not an e-mail address"));
            }
            if (req.role() != null && !Set.of("admin", "user").contains(req.role())) {
                errors.add(new Problem.FieldError("role", "admin or user"));
            }
        }
        return errors;
    }

    public Uni<UserView> update(String username, UpdateUser req, Caller caller) {
        requireAdmin(caller);
        List<Problem.FieldError> errors = checkUpdate(req);
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidUser", "the user cannot be changed as given", errors));
        }
        return Panache.withTransaction(() -> byUsername(username).flatMap(before -> {
            if (before.id() == caller.userId() && (Boolean.TRUE.equals(req.disabled()) || "user".equals(req.role()))) {
                throw new ApiException(
                        409,
                        "SelfLockout",
                        "Conflict",
                        "you cannot disable yourself or drop your own admin role",
                        null,
                        null,
                        null);
            }
            String display = req.displayName() == null
                    ? before.displayName()
                    : req.displayName().trim();
            String email = req.email() == null
                    ? before.email()
                    : req.email().isEmpty() ? null : req.email().trim();
            String role = req.role() == null ? before.role() : req.role();
            boolean disabled = req.disabled() == null ? before.disabled() : req.disabled();
            return Sql.update(
                            "UPDATE users SET display_name = ?2, email = ?3, role = ?4, disabled = ?5, updated_at = now() WHERE id = ?1",
                            before.id(),
                            display,
                            email == null ? "" : email,
                            role,
                            disabled)
                    .call(x -> email == null
                            ? Sql.update("UPDATE users SET email = NULL WHERE id = ?1", before.id())
                            : Uni.createFrom().item(0))
                    .flatMap(x -> disabled && !before.disabled()
                            ? Sql.update(
                                    "UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = ?1 AND revoked_at IS NULL",
                                    before.id())
                            : Uni.createFrom().item(0))
                    .flatMap(x -> audit.record(
                            caller.actor(null),
                            "user.update",
                            "user",
                            before.username(),
                            summary(before),
                            summary(changed(before, display, email, role, disabled))))
                    .flatMap(v -> byUsername(username));
        }));
    }

    /** A user changes their own display name or e-mail. */
    public Uni<UserView> updateProfile(Caller caller, String displayName, String email) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (displayName != null && (displayName.isBlank() || displayName.length() > 200)) {
            errors.add(new Problem.FieldError("displayName", "1 to 200 characters"));
        }
        if (email != null && !email.isEmpty() && !email.matches("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$")) {
            errors.add(new Problem.FieldError("email", "not an e-mail address"));
        }
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidUser", "the profile cannot be changed as given", errors));
        }
        return Panache.withTransaction(() -> Sql.row("SELECT " + COLUMNS + FROM + " WHERE u.id = ?1", caller.userId())
                        .flatMap(row -> view(row.orElseThrow(() -> ApiException.notFound("no such user"))))
                        .flatMap(before -> {
                            String display = displayName == null ? before.displayName() : displayName.trim();
                            String mail = email == null ? before.email() : email.isEmpty() ? null : email.trim();
                            return Sql.update(
                                            "UPDATE users SET display_name = ?2, email = ?3, updated_at = now() WHERE id = ?1",
                                            before.id(),
                                            display,
                                            mail == null ? "" : mail)
                                    .call(x -> mail == null
                                            ? Sql.update("UPDATE users SET email = NULL WHERE id = ?1", before.id())
                                            : Uni.createFrom().item(0))
                                    .flatMap(x -> audit.record(
                                            caller.actor(null),
                                            "user.update-profile",
                                            "user",
                                            before.username(),
                                            Map.of(
                                                    "displayName",
                                                    before.displayName(),
                                                    "email",
                                                    String.valueOf(before.email())),
                                            Map.of("displayName", display, "email", String.valueOf(mail))));
                        }))
                .flatMap(v -> get(caller.userId()));
    }

    public Uni<String> resetPassword(String username, Caller caller) {
        requireAdmin(caller);
        String password = randomPassword();
        return vertx.executeBlocking(Uni.createFrom().item(() -> PasswordHasher.hash(password)))
                .flatMap(hash -> Panache.withTransaction(() -> byUsername(username)
                        .flatMap(u -> Sql.update(
                                        "UPDATE users SET password_hash = ?2, password_changed_at = NULL, updated_at = now()"
                                                + " WHERE id = ?1",
                                        u.id(),
                                        hash)
                                .flatMap(x -> Sql.update(
                                        "UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = ?1 AND revoked_at IS NULL",
                                        u.id()))
                                .flatMap(x -> audit.record(
                                        caller.actor(null), "user.password-reset", "user", u.username(), null, null)))))
                .replaceWith(password);
    }

    /** Whether the user has chosen their own password since it was generated or last reset. */
    public Uni<Boolean> passwordChanged(long userId) {
        return Sql.row("SELECT password_changed_at IS NOT NULL FROM users WHERE id = ?1", userId)
                .map(r -> r.map(x -> Boolean.TRUE.equals(x[0])).orElse(false));
    }

    /** The ids of the platform administrators. */
    public Uni<List<Long>> adminIds() {
        return Sql.longs("SELECT id FROM users WHERE role = 'admin'");
    }

    public Uni<Void> changePassword(Caller caller, String current, String next) {
        if (next == null || next.length() < config.minPasswordLength()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidPassword",
                            "the new password is too short",
                            List.of(new Problem.FieldError(
                                    "newPassword", "at least " + config.minPasswordLength() + " characters"))));
        }
        return Panache.withSession(
                        () -> Sql.row("SELECT password_hash, username FROM users WHERE id = ?1", caller.userId()))
                .flatMap(r -> vertx.executeBlocking(Uni.createFrom().item(() -> {
                    String hash = r.map(x -> (String) x[0]).orElse(null);
                    if (current == null || hash == null || !PasswordHasher.verify(current, hash)) {
                        throw ApiException.badRequest(
                                "WrongPassword",
                                "the current password is not right",
                                List.of(new Problem.FieldError("currentPassword", "does not match")));
                    }
                    return PasswordHasher.hash(next);
                })))
                .flatMap(hash -> Panache.withTransaction(() -> Sql.update(
                                "UPDATE users SET password_hash = ?2, password_changed_at = now(), updated_at = now()"
                                        + " WHERE id = ?1",
                                caller.userId(),
                                hash)
                        .flatMap(x -> audit.record(
                                caller.actor(null),
                                "user.password-change",
                                "user",
                                caller.user().username(),
                                null,
                                null))));
    }

    static void requireAdmin(Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only a platform administrator may do this");
        }
    }

    static String randomPassword() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }

    private static Map<String, Object> summary(UserView u) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("displayName", u.displayName());
        m.put("email", u.email());
        m.put("role", u.role());
        m.put("disabled", u.disabled());
        return m;
    }
}
