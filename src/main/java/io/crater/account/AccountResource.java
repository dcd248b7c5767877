package io.crater.account;

import io.crater.account.AccountViews.AccountDetail;
import io.crater.account.AccountViews.AccountSummary;
import io.crater.account.AccountViews.Limits;
import io.crater.account.AccountViews.Member;
import io.crater.identity.CurrentUser;
import io.crater.platform.Page;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Accounts, their quota, members and member limits. */
@Path("/api/v1/accounts")
@Tag(name = "accounts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AccountResource {

    /** A list body. */
    public record Items<T>(List<T> items) {}

    @Inject
    CurrentUser current;

    @Inject
    AccountService accounts;

    @Inject
    QuotaService quotas;

    @Inject
    MemberService members;

    @Inject
    AccountArchive archive;

    @GET
    @Operation(summary = "Accounts: all for platform admins, else the caller's")
    public Uni<Page<AccountSummary>> list(
            @QueryParam("q") String q, @QueryParam("cursor") String cursor, @QueryParam("limit") Integer limit) {
        return current.caller().flatMap(c -> accounts.list(c, q, cursor, limit));
    }

    @POST
    @Operation(summary = "Create a team account (platform admins)")
    public Uni<Response> create(AccountViews.CreateAccount req) {
        return current.caller()
                .flatMap(c -> accounts.create(req, c))
                .map(a -> Response.status(201).entity(a).build());
    }

    @GET
    @Path("/{slug}")
    @Operation(summary = "An account with its quota, usage, grants and borrowing")
    public Uni<AccountDetail> get(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> accounts.detail(slug, c));
    }

    @PATCH
    @Path("/{slug}")
    @Operation(summary = "Rename an account or change its expiry (platform admins)")
    public Uni<AccountDetail> update(@PathParam("slug") String slug, AccountViews.UpdateAccount req) {
        return current.caller().flatMap(c -> accounts.update(slug, req, c));
    }

    @POST
    @Path("/{slug}/archive")
    @Operation(
            summary =
                    "Archive a team account (platform admins): no job starts in it again, its unfinished jobs are stopped, its rows kept")
    public Uni<AccountArchive.Archived> archive(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> archive.archive(slug, c));
    }

    @PUT
    @Path("/{slug}/quota")
    @Operation(summary = "Set the account's quota per resource (platform admins)")
    public Uni<AccountDetail> putQuota(@PathParam("slug") String slug, AccountViews.QuotaUpdate req) {
        return current.caller().flatMap(c -> quotas.put(slug, req, c));
    }

    @GET
    @Path("/{slug}/members")
    @Operation(summary = "Members with their roles, file access and limits")
    public Uni<Items<Member>> members(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> members.list(slug, c)).map(Items::new);
    }

    @PUT
    @Path("/{slug}/members/{username}")
    @Operation(summary = "Add a member or change their role and file access (account admins)")
    public Uni<Member> putMember(
            @PathParam("slug") String slug, @PathParam("username") String username, AccountViews.MemberUpdate req) {
        return current.caller().flatMap(c -> members.put(slug, username, req, c));
    }

    @DELETE
    @Path("/{slug}/members/{username}")
    @Operation(summary = "Remove a member (account admins)")
    public Uni<Response> removeMember(@PathParam("slug") String slug, @PathParam("username") String username) {
        return current.caller()
                .flatMap(c -> members.remove(slug, username, c))
                .map(v -> Response.noContent().build());
    }

    @GET
    @Path("/{slug}/limits")
    @Operation(summary = "The account's default member limits")
    public Uni<Limits> limits(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> members.defaultLimits(slug, c));
    }

    @PUT
    @Path("/{slug}/limits")
    @Operation(summary = "Set the account's default member limits (account admins)")
    public Uni<Limits> putLimits(@PathParam("slug") String slug, Limits req) {
        return current.caller().flatMap(c -> members.putDefaultLimits(slug, req, c));
    }

    @GET
    @Path("/{slug}/members/{username}/limits")
    @Operation(summary = "A member's own limits (overrides of the default)")
    public Uni<Limits> memberLimits(@PathParam("slug") String slug, @PathParam("username") String username) {
        return current.caller().flatMap(c -> members.memberLimits(slug, username, c));
    }

    @PUT
    @Path("/{slug}/members/{username}/limits")
    @Operation(summary = "Set a member's own limits (account admins)")
    public Uni<Limits> putMemberLimits(
            @PathParam("slug") String slug, @PathParam("username") String username, Limits req) {
        return current.caller().flatMap(c -> members.putMemberLimits(slug, username, req, c));
    }
}
