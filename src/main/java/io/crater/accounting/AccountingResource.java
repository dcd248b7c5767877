package io.crater.accounting;

import io.crater.account.AccountService;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Prices, budgets, the ledger and usage reports (docs/accounting.md). */
@Path("/api/v1/accounting")
@Tag(name = "accounting")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AccountingResource {

    /** A list body. */
    public record Items<T>(List<T> items) {}

    @Inject
    CurrentUser current;

    @Inject
    PriceService prices;

    @Inject
    BudgetService budgets;

    @Inject
    BudgetWatch watch;

    @Inject
    Ledger ledger;

    @Inject
    UsageReports reports;

    @Inject
    SettlementService settlement;

    @Inject
    Statements statements;

    @Inject
    AccountService accounts;

    @Inject
    AllotmentService allotments;

    @GET
    @Path("/prices")
    @Operation(summary = "The price book: prices in force now and every version")
    public Uni<PriceService.Book> prices() {
        return prices.list();
    }

    @POST
    @Path("/prices")
    @Operation(summary = "Set a price from a time on (platform admins)")
    public Uni<Response> addPrice(PriceService.NewPrice req) {
        return current.caller()
                .flatMap(c -> prices.add(req, c))
                .map(p -> Response.status(201).entity(p).build());
    }

    @GET
    @Path("/accounts/{slug}/budget")
    @Operation(summary = "An account's budget, balance, spending this period, burn rate and what it holds now")
    public Uni<AccountingViews.BudgetView> budget(@PathParam("slug") String slug) {
        return current.caller()
                .flatMap(c -> Panache.withSession(() -> accounts.access(slug, c).flatMap(watch::view)));
    }

    @PUT
    @Path("/accounts/{slug}/budget")
    @Operation(summary = "Set an account's budget (platform admins)")
    public Uni<AccountingViews.BudgetView> putBudget(@PathParam("slug") String slug, BudgetService.BudgetUpdate req) {
        return current.caller().flatMap(c -> budgets.put(slug, req, c));
    }

    @POST
    @Path("/accounts/{slug}/budget/top-ups")
    @Operation(summary = "Top an account's budget up (platform admins); an Idempotency-Key makes a retry post once")
    public Uni<AccountingViews.BudgetView> topUp(
            @PathParam("slug") String slug, @HeaderParam("Idempotency-Key") String key, BudgetService.TopUp req) {
        return current.caller().flatMap(c -> budgets.topUp(slug, req, key, c));
    }

    @GET
    @Path("/accounts/{slug}/budget/allotments")
    @Operation(summary = "Members' allotments this period, spent and left (a member sees only their own)")
    public Uni<AccountingViews.Allotments> allotments(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> allotments.list(slug, c));
    }

    @PUT
    @Path("/accounts/{slug}/budget/allotments/{username}")
    @Operation(summary = "Set what a member may spend per budget period (account admins and platform admins)")
    public Uni<AccountingViews.Allotment> putAllotment(
            @PathParam("slug") String slug,
            @PathParam("username") String username,
            AllotmentService.AllotmentUpdate req) {
        return current.caller().flatMap(c -> allotments.put(slug, username, req, c));
    }

    @DELETE
    @Path("/accounts/{slug}/budget/allotments/{username}")
    @Operation(summary = "Remove a member's allotment (account admins and platform admins)")
    public Uni<Response> removeAllotment(@PathParam("slug") String slug, @PathParam("username") String username) {
        return current.caller()
                .flatMap(c -> allotments.remove(slug, username, c))
                .map(v -> Response.noContent().build());
    }

    @GET
    @Path("/accounts/{slug}/ledger")
    @Operation(summary = "The account's ledger entries, newest first (a member sees only their own jobs' entries)")
    public Uni<Items<AccountingViews.Entry>> entries(
            @PathParam("slug") String slug,
            @QueryParam("before") @DefaultValue("0") long before,
            @QueryParam("limit") @DefaultValue("50") int limit) {
        if (limit < 1 || limit > 500) {
            throw ApiException.badRequest(
                    "InvalidLimit",
                    "limit must be between 1 and 500",
                    List.of(new io.crater.platform.Problem.FieldError("limit", "between 1 and 500")));
        }
        return current.caller()
                .flatMap(c -> Panache.withSession(() -> accounts.access(slug, c)
                        .flatMap(a -> ledger.entries(a.id(), a.admin() ? null : c.userId(), before, limit))
                        .map(Items::new)));
    }

    @GET
    @Path("/usage")
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @Operation(summary = "Unit-hours held and their cost over a span, grouped by resource, user, day, month or account")
    @APIResponse(
            responseCode = "200",
            description = "The report as JSON, or as CSV with format=csv or Accept: text/csv",
            content = {
                @Content(mediaType = "application/json", schema = @Schema(implementation = UsageReports.Report.class)),
                @Content(mediaType = "text/csv", schema = @Schema(type = SchemaType.STRING))
            })
    public Uni<Response> usage(
            @QueryParam("account") String account,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("by") String by,
            @QueryParam("format") String format,
            @HeaderParam("Accept") String accept) {
        boolean csv = wantsCsv(format, accept);
        return current.caller()
                .flatMap(c -> reports.report(account, from, to, by, c))
                .map(r -> csv
                        ? csv(
                                UsageReports.csv(r),
                                "usage-" + (r.account() == null ? "cluster" : r.account()) + "-" + r.by())
                        : Response.ok(r, MediaType.APPLICATION_JSON).build());
    }

    @GET
    @Path("/accounts/{slug}/statements")
    @Operation(
            summary = "The account's statements, newest first: every month, and every ISO week for a weekly budget"
                    + " (its admins and platform admins)")
    public Uni<Items<Statements.Summary>> statements(@PathParam("slug") String slug) {
        return current.caller().flatMap(c -> statements.list(slug, c)).map(Items::new);
    }

    @GET
    @Path("/accounts/{slug}/statements/{period}")
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @Operation(
            summary = "One month's (2026-11) or week's (2026-W48) statement with its lines per member and resource"
                    + " (JSON or CSV)")
    @APIResponse(
            responseCode = "200",
            description = "The statement as JSON, or as CSV with format=csv or Accept: text/csv",
            content = {
                @Content(mediaType = "application/json", schema = @Schema(implementation = Statements.Statement.class)),
                @Content(mediaType = "text/csv", schema = @Schema(type = SchemaType.STRING))
            })
    public Uni<Response> statement(
            @PathParam("slug") String slug,
            @PathParam("period") String period,
            @QueryParam("format") String format,
            @HeaderParam("Accept") String accept) {
        boolean csv = wantsCsv(format, accept);
        return current.caller()
                .flatMap(c -> statements.get(slug, period, c))
                .map(s -> csv
                        ? csv(
                                Statements.csv(s),
                                "statement-" + s.account() + "-" + s.summary().period())
                        : Response.ok(s, MediaType.APPLICATION_JSON).build());
    }

    @GET
    @Path("/check")
    @Operation(summary = "Recompute every balance from the ledger (platform admins)")
    public Uni<Ledger.Check> check() {
        return current.caller().flatMap(c -> {
            BudgetService.requirePlatformAdmin(c, "check the ledger");
            return Panache.withSession(ledger::check);
        });
    }

    @POST
    @Path("/settle")
    @Operation(summary = "Settle and measure accelerator use now instead of at the next minute (platform admins)")
    public Uni<SettlementService.Run> settle() {
        return current.caller().flatMap(c -> {
            BudgetService.requirePlatformAdmin(c, "settle");
            return settlement.settleAndMeasure();
        });
    }

    /** A CSV download named {@code name.csv}. */
    private static Response csv(String body, String name) {
        return Response.ok(body, "text/csv; charset=utf-8")
                .header("Content-Disposition", "attachment; filename=\"" + name + ".csv\"")
                .build();
    }

    /** Whether the caller asked for CSV: {@code format=csv} or an {@code Accept} naming {@code text/csv}. */
    private static boolean wantsCsv(String format, String accept) {
        return "csv".equals(format) || (accept != null && accept.contains("text/csv"));
    }
}
