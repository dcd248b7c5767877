package io.crater.images;

import io.crater.account.AccountService;
import io.crater.account.Memberships;
import io.crater.credential.CredentialService;
import io.crater.identity.Caller;
import io.crater.identity.UserDirectory;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.OnContext;
import io.crater.platform.Page;
import io.crater.platform.Problem;
import io.crater.policy.ImageReferences;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The image catalogue: container images described for the job form, seen by their owner, one account's members,
 * everyone (public ones, which platform admins manage), and the users and accounts they are shared with. Only the
 * owner (or a platform admin) changes, validates or deletes one; someone who may not see it gets 404, as for one that
 * does not exist.
 */
@ApplicationScoped
public class ImageService {

    @Inject
    ImageQueries queries;

    @Inject
    ImageReads reads;

    @Inject
    AccountService accounts;

    @Inject
    UserDirectory users;

    @Inject
    Memberships memberships;

    @Inject
    CredentialService credentials;

    @Inject
    RegistryClient registry;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    /** A page of what the caller sees. */
    public Uni<ImageViews.ImagePage> list(Caller caller, ImageQueries.Filter filter, String cursor, Integer limit) {
        long before = Page.afterId(cursor);
        int n = Page.limit(limit);
        return Panache.withSession(() -> reads.viewer(caller)
                .flatMap(v -> queries.list(v, filter, before, n))
                .flatMap(rows -> reads.views(rows.size() > n ? rows.subList(0, n) : rows, caller)
                        .map(items -> new ImageViews.ImagePage(
                                items,
                                rows.size() > n ? Long.toString(rows.get(n - 1).id()) : null))));
    }

    public Uni<ImageViews.Image> get(String id, Caller caller) {
        return Panache.withSession(() -> reads.visible(id, caller).flatMap(row -> reads.view(row, caller)));
    }

    public Uni<ImageViews.Image> create(ImageViews.CreateImage req, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        ImageChecks.Fields f = ImageChecks.check(
                new ImageViews.UpdateImage(
                        req.reference() == null ? "" : req.reference(),
                        req.description(),
                        req.tags() == null ? List.of() : req.tags(),
                        req.cudaVersion(),
                        req.architectures(),
                        req.vendors(),
                        req.kinds(),
                        req.visibility(),
                        req.account(),
                        req.sharedWith()),
                ImageChecks.EMPTY,
                errors);
        publicByAdmin(f, caller, errors);
        if (!errors.isEmpty()) {
            throw invalid(errors);
        }
        return Panache.withTransaction(() -> resolve(f, caller.userId()).flatMap(ids -> {
            ImageQueries.ImageRow row = row(0, ImageIds.next(), caller.userId(), f, ids.account());
            return queries.insert(row).flatMap(inserted -> {
                if (inserted.isEmpty()) {
                    throw ApiException.conflict(
                            "ImageExists", "you have an image " + f.reference().canonical() + " already");
                }
                return queries.replaceShares(inserted.get(), ids.users(), ids.accounts())
                        .flatMap(x -> audit.record(
                                caller.actor(null), "image.create", "image", row.publicId(), null, fields(f)))
                        .flatMap(x -> queries.byPublicId(row.publicId()))
                        .flatMap(r -> reads.view(r.orElseThrow(), caller));
            });
        }));
    }

    public Uni<ImageViews.Image> update(String id, ImageViews.UpdateImage req, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        return Panache.withTransaction(() -> reads.editable(id, caller)
                .flatMap(before -> reads.fields(before).flatMap(was -> {
                    List<Problem.FieldError> errors = new ArrayList<>();
                    ImageChecks.Fields f = ImageChecks.check(req, was, errors);
                    if (!"public".equals(was.visibility())) {
                        publicByAdmin(f, caller, errors);
                    } else if (!caller.platformAdmin()) {
                        errors.add(new Problem.FieldError(
                                "visibility", "a public image is changed by platform admins only"));
                    }
                    if (!errors.isEmpty()) {
                        throw invalid(errors);
                    }
                    return resolve(f, before.ownerId()).flatMap(ids -> {
                        ImageQueries.ImageRow after =
                                row(before.id(), before.publicId(), before.ownerId(), f, ids.account());
                        return queries.referenceTaken(before.ownerId(), after.reference(), before.id())
                                .flatMap(taken -> {
                                    if (taken) {
                                        throw ApiException.conflict(
                                                "ImageExists",
                                                "the owner has an image " + after.reference() + " already");
                                    }
                                    return queries.update(after);
                                })
                                .flatMap(x -> queries.replaceShares(before.id(), ids.users(), ids.accounts()))
                                .flatMap(x -> queries.keepChecks(before.id(), f.tags()))
                                .flatMap(x -> audit.record(
                                        caller.actor(null), "image.update", "image", id, fields(was), fields(f)))
                                .flatMap(x -> queries.byPublicId(id))
                                .flatMap(r -> reads.view(r.orElseThrow(), caller));
                    });
                })));
    }

    /** Deletes the image from the catalogue (the registry keeps it: Crater never pushes or deletes there). */
    public Uni<Void> delete(String id, Caller caller) {
        return Panache.withTransaction(() -> reads.editable(id, caller).flatMap(row -> {
            if ("public".equals(row.visibility()) && !caller.platformAdmin()) {
                throw ApiException.forbidden("NotImageOwner", "a public image is deleted by platform admins only");
            }
            return reads.fields(row)
                    .call(f -> queries.delete(row.id()))
                    .flatMap(f -> audit.record(caller.actor(null), "image.delete", "image", id, fields(f), null));
        }));
    }

    /**
     * Asks the image's registry about each of its tags, with the caller's registry credential for its host when
     * they have one, and records each answer (the digest a tag resolved to, or why it could not be).
     */
    public Uni<ImageViews.Image> validate(String id, Caller caller) {
        return Panache.withTransaction(() -> reads.editable(id, caller).flatMap(row -> {
                    ImageReferences.Reference ref =
                            ImageReferences.parse(row.reference()).reference();
                    return credentials
                            .registryLogin(caller.userId(), hosts(ref))
                            .map(login -> new Validation(row, ref, login));
                }))
                .flatMap(v -> askEach(v, ImageChecks.listOf(v.row().tags())))
                .flatMap(v -> OnContext.run(() -> Panache.withTransaction(() -> record(v, caller))));
    }

    /** A validation under way: the image, its reference, the credential used, and the registry's answers by tag. */
    private record Validation(
            ImageQueries.ImageRow row,
            ImageReferences.Reference ref,
            Optional<CredentialService.RegistryLogin> login,
            Map<String, RegistryClient.Outcome> outcomes) {
        Validation(
                ImageQueries.ImageRow row,
                ImageReferences.Reference ref,
                Optional<CredentialService.RegistryLogin> login) {
            this(row, ref, login, new LinkedHashMap<>());
        }
    }

    /** Asks about the tags one after another (a registry limits clients that ask too much at once). */
    private Uni<Validation> askEach(Validation v, List<String> tags) {
        Uni<Validation> chain = Uni.createFrom().item(v);
        for (String tag : tags) {
            chain = chain.flatMap(x -> registry.check(x.ref(), tag, x.login()).map(o -> {
                x.outcomes().put(tag, o);
                return x;
            }));
        }
        return chain;
    }

    private Uni<ImageViews.Image> record(Validation v, Caller caller) {
        Uni<Integer> chain = Uni.createFrom().item(0);
        for (Map.Entry<String, RegistryClient.Outcome> e : v.outcomes().entrySet()) {
            RegistryClient.Outcome o = e.getValue();
            ImageQueries.CheckRow check = new ImageQueries.CheckRow(
                    v.row().id(), e.getKey(), o.result(), o.detail(), o.digest(), o.mediaType(), clock.instant());
            chain = chain.flatMap(x -> queries.recordCheck(check));
        }
        Map<String, Object> audited = new LinkedHashMap<>();
        audited.put("reference", v.row().reference());
        v.outcomes().forEach((tag, o) -> audited.put(tag, o.result()));
        v.login().ifPresent(l -> audited.put("credential", l.name()));
        return chain.flatMap(x -> audit.record(
                        caller.actor(null), "image.validate", "image", v.row().publicId(), null, audited))
                .flatMap(x -> queries.byPublicId(v.row().publicId()))
                .flatMap(r -> r.isEmpty()
                        ? Uni.createFrom().failure(ImageReads.notFound(v.row().publicId()))
                        : reads.view(r.get(), caller));
    }

    /** The hosts a registry credential may name for this reference (Docker Hub goes by several). */
    private static List<String> hosts(ImageReferences.Reference ref) {
        return ImageReferences.DOCKER_HUB.equals(ref.registry())
                ? List.of("docker.io", "index.docker.io", "registry-1.docker.io")
                : List.of(ref.registry());
    }

    private static void publicByAdmin(ImageChecks.Fields f, Caller caller, List<Problem.FieldError> errors) {
        if ("public".equals(f.visibility()) && !caller.platformAdmin()) {
            errors.add(new Problem.FieldError("visibility", "only platform admins publish images to everyone"));
        }
    }

    /** The ids behind the names: the account shared with (the owner must be a member), shared users and accounts. */
    private record Ids(Long account, List<Long> users, List<Long> accounts) {}

    private Uni<Ids> resolve(ImageChecks.Fields f, long ownerId) {
        Uni<Long> account = f.account() == null
                ? Uni.createFrom().nullItem()
                : accounts.memberAccountId(f.account(), ownerId)
                        .map(id -> id.orElseThrow(() -> invalid(List.of(new Problem.FieldError(
                                "account", "the owner is not a member of account '" + f.account() + "'")))));
        return account.flatMap(a -> users.idsOf(f.users())
                .flatMap(u -> memberships.idsOf(f.accounts()).map(s -> {
                    List<Problem.FieldError> errors = new ArrayList<>();
                    f.users().stream()
                            .filter(n -> !u.containsKey(n))
                            .forEach(
                                    n -> errors.add(new Problem.FieldError("sharedWith.users", "no user '" + n + "'")));
                    f.accounts().stream()
                            .filter(n -> !s.containsKey(n))
                            .forEach(n -> errors.add(
                                    new Problem.FieldError("sharedWith.accounts", "no account '" + n + "'")));
                    if (!errors.isEmpty()) {
                        throw invalid(errors);
                    }
                    return new Ids(
                            a,
                            f.users().stream().map(u::get).distinct().toList(),
                            f.accounts().stream().map(s::get).toList());
                })));
    }

    private static ImageQueries.ImageRow row(
            long id, String publicId, long ownerId, ImageChecks.Fields f, Long accountId) {
        return new ImageQueries.ImageRow(
                id,
                publicId,
                f.reference().canonical(),
                ownerId,
                f.description(),
                ImageChecks.stored(f.tags()),
                f.cudaVersion(),
                ImageChecks.stored(f.architectures()),
                ImageChecks.stored(f.vendors()),
                ImageChecks.stored(f.kinds()),
                f.visibility(),
                accountId,
                null,
                null);
    }

    private static Map<String, Object> fields(ImageChecks.Fields f) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("reference", f.reference().canonical());
        out.put("tags", f.tags());
        out.put("visibility", f.visibility());
        if (f.account() != null) {
            out.put("account", f.account());
        }
        out.put("sharedWith", Map.of("users", f.users(), "accounts", f.accounts()));
        return out;
    }

    static ApiException invalid(List<Problem.FieldError> errors) {
        return ApiException.badRequest("InvalidImage", "the image cannot be saved as given", errors);
    }
}
