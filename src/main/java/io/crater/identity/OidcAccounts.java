package io.crater.identity;

import io.crater.platform.Actor;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Sql;
import io.crater.policy.OidcProfile;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;

/**
 * The Crater user behind a provider's validated claims, in one transaction: found by their link (issuer and
 * subject in {@code external_identities}), or linked by a verified e-mail address when the provider allows it, or
 * created on their first sign-in (no password, a personal account as for every user). Their name and e-mail follow
 * the provider; their provider-granted memberships follow the groups claim.
 */
@ApplicationScoped
class OidcAccounts {

    @Inject
    OidcProviders providers;

    @Inject
    UserService users;

    @Inject
    UserRepository repository;

    @Inject
    DirectoryGrants grants;

    @Inject
    AuditTrail audit;

    Uni<UserEntity> signIn(String name, String issuer, Map<String, Object> claims) {
        OidcConfig.Provider p = providers.provider(name);
        OidcProfile.Outcome outcome = OidcProviders.profile(p).map(claims);
        if (outcome.user() == null) {
            return Uni.createFrom().failure(ApiException.conflict("ProviderClaimsUnusable", outcome.problem()));
        }
        OidcProfile.Mapped m = outcome.user();
        Actor actor = new Actor(null, m.username(), null, null);
        String source = OidcProviders.source(name);
        return Panache.withTransaction(() -> Sql.longs(
                        "SELECT user_id FROM external_identities WHERE issuer = ?1 AND subject = ?2",
                        issuer,
                        m.subject())
                .flatMap(link -> link.isEmpty() ? firstSignIn(p, source, issuer, m, actor) : refresh(link.get(0), m))
                .call(id -> grants.bringInLine(source, OidcProviders.mappings(p), id, m.username(), m.groups(), actor))
                .flatMap(id -> repository.findById(id)));
    }

    /** A linked user: the provider's name and e-mail replace the stored ones. */
    private Uni<Long> refresh(long userId, OidcProfile.Mapped m) {
        return Sql.update(
                        "UPDATE users SET display_name = ?2, email = NULLIF(?3, ''), updated_at = now() WHERE id = ?1",
                        userId,
                        m.displayName(),
                        m.email() == null ? "" : m.email())
                .replaceWith(userId);
    }

    private Uni<Long> firstSignIn(
            OidcConfig.Provider p, String source, String issuer, OidcProfile.Mapped m, Actor actor) {
        Uni<List<Long>> byEmail = p.linkByEmail() && m.emailVerified()
                ? Sql.longs("SELECT id FROM users WHERE lower(email) = lower(?1)", m.email())
                : Uni.createFrom().item(List.of());
        return byEmail.flatMap(same -> {
            if (same.size() == 1) {
                return link(same.get(0), source, issuer, m, actor, "email");
            }
            return repository.findByUsername(m.username()).flatMap(existing -> {
                if (existing != null) {
                    return Uni.createFrom()
                            .failure(ApiException.conflict(
                                    "UsernameTaken",
                                    "a user '" + m.username() + "' exists already and is not linked to this provider;"
                                            + " an administrator must rename it, or allow linking by verified e-mail"
                                            + " (link-by-email)"));
                }
                return users.insert(
                                new NewUser(m.username(), m.displayName(), m.email(), "user", null, null, false), actor)
                        .call(id -> link(id, source, issuer, m, actor, "created"));
            });
        });
    }

    private Uni<Long> link(long id, String source, String issuer, OidcProfile.Mapped m, Actor actor, String how) {
        return Sql.update(
                        "INSERT INTO external_identities (user_id, provider, issuer, subject) VALUES (?1, ?2, ?3, ?4)",
                        id,
                        source,
                        issuer,
                        m.subject())
                .flatMap(x -> audit.record(
                        actor,
                        "user.link",
                        "user",
                        m.username(),
                        null,
                        Map.of("provider", source, "issuer", issuer, "subject", m.subject(), "how", how)))
                .replaceWith(id);
    }
}
