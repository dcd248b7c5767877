package io.crater.images;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.platform.ApiException;
import io.crater.policy.ImageReferences;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/** Reading images for a caller: who sees which, who may change it, and the view with names in place of ids. */
@ApplicationScoped
class ImageReads {

    @Inject
    ImageQueries queries;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    Uni<ImageQueries.Viewer> viewer(Caller caller) {
        if (caller.platformAdmin()) {
            return Uni.createFrom().item(new ImageQueries.Viewer(caller.userId(), true, List.of()));
        }
        return accounts.accountIdsOf(caller.userId()).map(ids -> new ImageQueries.Viewer(caller.userId(), false, ids));
    }

    /** The image if the caller sees it; 404 otherwise, as for an id nobody has. In the caller's session. */
    Uni<ImageQueries.ImageRow> visible(String id, Caller caller) {
        if (id == null || !ImageChecks.PUBLIC_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(notFound(id));
        }
        return queries.byPublicId(id).flatMap(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().failure(notFound(id));
            }
            return viewer(caller)
                    .flatMap(v -> queries.sees(v, found.get().id()))
                    .map(seen -> {
                        if (!seen) {
                            throw notFound(id);
                        }
                        return found.get();
                    });
        });
    }

    /** The image if the caller may change it (its owner, a platform admin): 404 unseen, 403 seen but not theirs. */
    Uni<ImageQueries.ImageRow> editable(String id, Caller caller) {
        return visible(id, caller).map(i -> {
            if (i.ownerId() != caller.userId() && !caller.platformAdmin()) {
                throw ApiException.forbidden(
                        "NotImageOwner", "only its owner or a platform admin may change '" + i.reference() + "'");
            }
            return i;
        });
    }

    /** The fields of a stored image, as {@link ImageChecks#check} applies changes to them. */
    Uni<ImageChecks.Fields> fields(ImageQueries.ImageRow r) {
        return views(List.of(r), null).map(v -> fieldsOf(r, v.get(0)));
    }

    static ImageChecks.Fields fieldsOf(ImageQueries.ImageRow r, ImageViews.Image v) {
        return new ImageChecks.Fields(
                ImageReferences.parse(r.reference()).reference(),
                r.description(),
                v.tags(),
                r.cudaVersion(),
                v.architectures(),
                v.vendors(),
                v.kinds(),
                r.visibility(),
                v.account(),
                v.sharedWith().users(),
                v.sharedWith().accounts());
    }

    Uni<ImageViews.Image> view(ImageQueries.ImageRow row, Caller caller) {
        return views(List.of(row), caller).map(v -> v.get(0));
    }

    /**
     * The views of rows: owners and shared users by username, accounts by slug, with each tag's last check. The
     * shares are shown to whoever may change the image ({@code caller} null: to the service itself) only.
     */
    Uni<List<ImageViews.Image>> views(List<ImageQueries.ImageRow> rows, Caller caller) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Long> ids = rows.stream().map(ImageQueries.ImageRow::id).toList();
        return queries.shares(ids)
                .flatMap(shares -> queries.checks(ids).flatMap(checks -> {
                    List<Long> people = Stream.concat(
                                    rows.stream().map(ImageQueries.ImageRow::ownerId),
                                    shares.stream()
                                            .map(ImageQueries.ShareRow::userId)
                                            .filter(Objects::nonNull))
                            .distinct()
                            .toList();
                    List<Long> groups = Stream.concat(
                                    rows.stream().map(ImageQueries.ImageRow::accountId),
                                    shares.stream().map(ImageQueries.ShareRow::accountId))
                            .filter(Objects::nonNull)
                            .distinct()
                            .toList();
                    return users.usernames(people)
                            .flatMap(names -> (groups.isEmpty()
                                            ? Uni.createFrom().item(Map.<Long, String>of())
                                            : accounts.slugs(groups))
                                    .map(slugs -> rows.stream()
                                            .map(r -> view(r, shares, checks, names, slugs, caller))
                                            .toList()));
                }));
    }

    private static ImageViews.Image view(
            ImageQueries.ImageRow r,
            List<ImageQueries.ShareRow> shares,
            List<ImageQueries.CheckRow> checks,
            Map<Long, String> names,
            Map<Long, String> slugs,
            Caller caller) {
        boolean mayEdit = caller == null || r.ownerId() == caller.userId() || caller.platformAdmin();
        List<String> sharedUsers = new ArrayList<>();
        List<String> sharedAccounts = new ArrayList<>();
        if (mayEdit) {
            shares.stream().filter(s -> s.imageId() == r.id()).forEach(s -> {
                if (s.userId() != null) {
                    sharedUsers.add(names.get(s.userId()));
                } else {
                    sharedAccounts.add(slugs.get(s.accountId()));
                }
            });
            sharedUsers.sort(null);
            sharedAccounts.sort(null);
        }
        List<String> tags = ImageChecks.listOf(r.tags());
        ImageReferences.Reference ref = ImageReferences.parse(r.reference()).reference();
        return new ImageViews.Image(
                r.publicId(),
                r.reference(),
                ref.registry(),
                ref.repository(),
                names.get(r.ownerId()),
                r.description(),
                tags,
                r.cudaVersion(),
                ImageChecks.listOf(r.architectures()),
                ImageChecks.listOf(r.vendors()),
                ImageChecks.listOf(r.kinds()),
                r.visibility(),
                r.accountId() == null ? null : slugs.get(r.accountId()),
                new ImageViews.Shares(sharedUsers, sharedAccounts),
                checks.stream()
                        .filter(c -> c.imageId() == r.id() && tags.contains(c.tag()))
                        .map(c -> new ImageViews.ImageCheck(
                                c.tag(), c.result(), c.detail(), c.digest(), c.mediaType(), c.at()))
                        .toList(),
                r.createdAt(),
                r.updatedAt(),
                mayEdit);
    }

    static ApiException notFound(String id) {
        return ApiException.notFound("no image '" + id + "'");
    }
}
