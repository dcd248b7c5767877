package io.crater.credential;

import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Users' credentials: stored by name, sealed at rest, never answered. A user sees and touches only their own
 * (another user's name is 404); jobs reference them by name and receive the value through a Secret.
 */
@ApplicationScoped
public class CredentialService {

    @Inject
    CredentialQueries queries;

    @Inject
    CredentialKeys keys;

    @Inject
    AuditTrail audit;

    public Uni<List<CredentialViews.Credential>> list(Caller caller) {
        return Panache.withSession(() -> queries.list(caller.userId()));
    }

    public Uni<CredentialViews.Credential> get(String name, Caller caller) {
        return Panache.withSession(() -> found(caller.userId(), name));
    }

    public Uni<CredentialViews.Credential> create(CredentialViews.CreateCredential req, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        List<Problem.FieldError> errors = CredentialChecks.create(req);
        if (!errors.isEmpty()) {
            throw invalid(errors);
        }
        String sealed = keys.cipher().seal(caller.userId(), req.name(), req.value());
        return Panache.withTransaction(() -> queries.insert(
                        caller.userId(), req.name(), req.kind(), req.host(), req.username(), req.description(), sealed)
                .flatMap(inserted -> {
                    if (!inserted) {
                        throw ApiException.conflict(
                                "CredentialExists",
                                "you have a credential named '" + req.name() + "' already: replace its value with PUT");
                    }
                    return found(caller.userId(), req.name());
                })
                .call(c -> audit.record(
                        caller.actor(null), "credential.create", "credential", c.name(), null, fields(c))));
    }

    public Uni<CredentialViews.Credential> replace(String name, CredentialViews.ReplaceCredential req, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        return Panache.withTransaction(() -> found(caller.userId(), name).flatMap(before -> {
            List<Problem.FieldError> errors = CredentialChecks.replace(before.kind(), req);
            if (!errors.isEmpty()) {
                throw invalid(errors);
            }
            String sealed = keys.cipher().seal(caller.userId(), name, req.value());
            return queries.replace(caller.userId(), name, sealed, req.description(), req.host(), req.username())
                    .flatMap(n -> found(caller.userId(), name))
                    .call(after -> audit.record(
                            caller.actor(null),
                            "credential.replace",
                            "credential",
                            name,
                            fields(before),
                            fields(after)));
        }));
    }

    public Uni<Void> delete(String name, Caller caller) {
        return Panache.withTransaction(() -> found(caller.userId(), name)
                .call(before -> queries.delete(caller.userId(), name))
                .flatMap(before -> audit.record(
                        caller.actor(null), "credential.delete", "credential", name, fields(before), null)));
    }

    /**
     * Refuses a job whose environment names credentials the submitter does not have: 400 {@code UnknownCredential}
     * with the field {@code env.<VARIABLE>} of each. {@code references} maps variables to credential names. Call
     * within a session.
     */
    public Uni<Void> requireOwned(long userId, Map<String, String> references) {
        if (references.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return queries.names(userId, new TreeSet<>(references.values())).map(have -> {
            List<Problem.FieldError> errors = new ArrayList<>();
            new TreeMap<>(references).forEach((variable, credential) -> {
                if (!have.contains(credential)) {
                    errors.add(new Problem.FieldError(
                            "env." + variable, "you have no credential named '" + credential + "'"));
                }
            });
            if (!errors.isEmpty()) {
                throw ApiException.badRequest(
                        "UnknownCredential", "the job names credentials you have not stored", errors);
            }
            return null;
        });
    }

    /**
     * The values of the user's credentials of these names (the ones stored), marked used. For the job's Secret
     * only: nothing else may carry them. Call within a transaction.
     */
    public Uni<Map<String, String>> reveal(long userId, Collection<String> names) {
        Set<String> wanted = new TreeSet<>(names);
        return queries.use(userId, wanted).map(rows -> {
            Map<String, String> out = new HashMap<>();
            CredentialCipher cipher = keys.cipher();
            rows.forEach(r -> out.put(r.name(), cipher.open(userId, r.name(), r.sealedValue())));
            return out;
        });
    }

    /** A registry credential opened: its name, the username and the password or token (never to be shown). */
    public record RegistryLogin(String name, String username, String secret) {
        @Override
        public String toString() {
            return "RegistryLogin[" + name + ", " + username + "]";
        }
    }

    /**
     * The user's credential of kind {@code registry} for one of these registry hosts (the first by name), opened and
     * marked used, for a request to that registry only. Call within a transaction.
     */
    public Uni<java.util.Optional<RegistryLogin>> registryLogin(long userId, Collection<String> hosts) {
        return queries.useRegistry(userId, hosts)
                .map(row -> row.map(r -> new RegistryLogin(
                        r.name(), r.username(), keys.cipher().open(userId, r.name(), r.sealedValue()))));
    }

    /**
     * The user's credential of this name as everyone may see it (never its value), empty when they have none of it.
     * Call within a session.
     */
    public Uni<java.util.Optional<CredentialViews.Credential>> find(long userId, String name) {
        return CredentialChecks.validName(name)
                ? queries.get(userId, name)
                : Uni.createFrom().item(java.util.Optional.empty());
    }

    /** The username of the user's registry credential of this name, empty when there is none. */
    public Uni<java.util.Optional<String>> registryUsername(long userId, String name) {
        return find(userId, name)
                .map(c -> c.filter(x -> "registry".equals(x.kind())).map(CredentialViews.Credential::username));
    }

    private Uni<CredentialViews.Credential> found(long userId, String name) {
        if (!CredentialChecks.validName(name)) {
            return Uni.createFrom().failure(ApiException.notFound("no credential named '" + name + "'"));
        }
        return queries.get(userId, name)
                .map(c -> c.orElseThrow(() -> ApiException.notFound("no credential named '" + name + "'")));
    }

    /** What the audit trail keeps of a credential: never its value. */
    private static Map<String, Object> fields(CredentialViews.Credential c) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", c.name());
        out.put("kind", c.kind());
        if (c.host() != null) {
            out.put("host", c.host());
        }
        if (c.username() != null) {
            out.put("username", c.username());
        }
        if (c.description() != null) {
            out.put("description", c.description());
        }
        return out;
    }

    private static ApiException invalid(List<Problem.FieldError> errors) {
        return ApiException.badRequest("InvalidCredential", "the credential cannot be stored as given", errors);
    }
}
