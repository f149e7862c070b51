// The catalogue of switchable weaknesses of the Acme Shop test target. Each FlawId turns on exactly
// one weakness; the same routes, spec and seed data exist whether it is on or off.

export type OwaspCategory = 'API1' | 'API2' | 'API3' | 'API4' | 'API5' | 'API6' | 'API7' | 'API8' | 'API9' | 'API10' | 'STATEFUL';

export interface FlawInfo {
  owasp: OwaspCategory;
  /** The SCANNER.md technique this flaw exists to prove, e.g. "API1.1 token swap (id in path)". */
  technique: string;
  /** What is wrong and how to trigger it. */
  description: string;
  /** What the hardened twin does instead. */
  hardened: string;
}

/**
 * Every flaw with its description. `satisfies` keeps the keys the single source of truth for
 * the FlawId union below.
 */
export const FLAWS = {
  // ---- API1 BOLA -----------------------------------------------------------------------------
  'bola-path': {
    owasp: 'API1',
    technique: 'API1.1 token swap / API1.3 id swap (id in path)',
    description: 'GET /api/v2/orders/{orderId} returns any order by id: no ownership check. Bob\'s key reads alice\'s order 1001.',
    hardened: '404 for an order the caller does not own (existence not revealed).',
  },
  'bola-query': {
    owasp: 'API1',
    technique: 'API1.1 token swap / API1.3 id swap (id in query)',
    description: 'GET /api/v2/documents/download?documentId=... returns any user\'s document content.',
    hardened: '404 unless the caller owns the document.',
  },
  'bola-body': {
    owasp: 'API1',
    technique: 'API1.1 token swap / API1.3 id swap (id in body)',
    description: 'POST /api/v2/invoices/lookup {"orderId": ...} returns the invoice (billing name, address, VAT id) of any order.',
    hardened: '404 unless the caller owns the order.',
  },
  'bola-user-id': {
    owasp: 'API1',
    technique: 'API1.3 id swap (user id from /me in path)',
    description: 'GET /api/v2/users/{userId}/addresses returns the addresses of any user id (ids are small integers).',
    hardened: '403 when userId is not the caller\'s own id (admins excepted).',
  },
  'bola-encoded-id': {
    owasp: 'API1',
    technique: 'API1.3 id swap with an encoded id (base64 of the number)',
    description: 'GET /api/v2/receipts/{receiptId} takes the order id base64-encoded (MTAwMg== is order 1002) and returns any order\'s receipt, with the customer\'s name and e-mail: decoding, adding one and encoding again reads another customer\'s receipt. No listing of receipts exists.',
    hardened: '404 for a receipt of an order the caller does not own.',
  },
  'bola-owner-id': {
    owasp: 'API1',
    technique: 'API1.1 token swap with ownership learnt from the login answer (a short numeric owner id)',
    description: 'GET /api/v2/carts/{cartId} returns any saved cart, `{"id": 1, "UserId": 2, ...}`: cart ids and user ids are small integers that collide, the login answer carries the caller\'s own cartId and its token\'s sub is the user id. No listing of carts and no owner name in the cart: only the owner id tells whose it is.',
    hardened: '404 for a cart the caller does not own.',
  },
  'bola-parent-id': {
    owasp: 'API1',
    technique: 'API1.3 id swap in a create body (a parent object of another user), with the field sent twice',
    description: 'POST /api/v2/cart-items {"cartId", "sku", "quantity"} checks that the first cartId in the raw body is the caller\'s cart but stores the last one: a body with the caller\'s cartId, then another user\'s, puts an item into their cart (a plain swap is refused with 404).',
    hardened: 'The body is parsed once; an item goes only into the caller\'s own cart (404 otherwise).',
  },
  'bola-body-id-update': {
    owasp: 'API1',
    technique: 'API1.2 create then steal, with the object named in the update\'s body and its id only in the listing',
    description: 'PATCH /api/v2/stores/tips {"id", "text"} edits any tip: it does not check that the tip is the caller\'s. A tip is written with PUT /api/v2/stores/{storeId}/tips, whose answer is only {"status": "success"}; its _id shows only in GET /api/v2/stores/{storeId}/tips, which names no author.',
    hardened: '404 for a tip another user wrote.',
  },
  'bola-create-read': {
    owasp: 'API1',
    technique: 'API1.2 create then steal: read',
    description: 'GET /api/v2/notes/{noteId} returns a note created by another user.',
    hardened: '404 for another user\'s note.',
  },
  'bola-create-update': {
    owasp: 'API1',
    technique: 'API1.2 create then steal: update (high)',
    description: 'PUT /api/v2/notes/{noteId} lets another user overwrite a note; the owner\'s re-read shows the change.',
    hardened: '404 for another user\'s note; nothing changes.',
  },
  'bola-create-delete': {
    owasp: 'API1',
    technique: 'API1.2 create then steal: delete (high)',
    description: 'DELETE /api/v2/notes/{noteId} lets another user delete a note; the owner\'s re-read is 404.',
    hardened: '404 for another user\'s note; the note survives.',
  },
  'password-change-other': {
    owasp: 'API1',
    technique: 'account takeover: another user\'s password changed',
    description: 'PUT /api/v2/users/{userId}/password {"newPassword"} has no ownership check and checks currentPassword only when it is sent: any signed-in user sets another user\'s password, then signs in as them with it.',
    hardened: '403 unless userId is the caller\'s own id; currentPassword is required (400 without it, 403 when wrong).',
  },
  'email-change-other': {
    owasp: 'API1',
    technique: 'account takeover: another user\'s e-mail changed',
    description: 'PUT /api/v2/users/{userId}/email {"email"} has no ownership check and checks currentPassword only when it is sent: any signed-in user points another user\'s account at their own mailbox (the victim\'s own GET /me shows it), and a password reset then lands with them.',
    hardened: '403 unless userId is the caller\'s own id; currentPassword is required (400 without it, 403 when wrong).',
  },

  // ---- API2 Broken authentication ------------------------------------------------------------
  'auth-none': {
    owasp: 'API2',
    technique: 'API2.1 no credentials',
    description: 'The object routes GET /orders/{orderId}, GET /documents/download, POST /invoices/lookup and GET /notes/{noteId} were mounted without the auth middleware: with no Authorization header they answer the object as for its owner.',
    hardened: '401 with WWW-Authenticate: Bearer.',
  },
  'auth-garbage': {
    owasp: 'API2',
    technique: 'API2.1 garbage credentials',
    description: 'The same object routes only test that an Authorization header is present: any value (e.g. "Bearer xyz") is served.',
    hardened: '401 for a token that does not verify.',
  },
  'jwt-alg-none': {
    owasp: 'API2',
    technique: 'API2.2 JWT alg:none',
    description: 'A token whose header says alg "none" (any case) is accepted without a signature; its claims are trusted.',
    hardened: 'Only HS256 tokens with a valid signature, issuer and audience are accepted.',
  },
  'jwt-sig-stripped': {
    owasp: 'API2',
    technique: 'API2.2 JWT signature stripped',
    description: 'The signature is only checked when present: "header.payload." (empty signature) is accepted.',
    hardened: '401.',
  },
  'jwt-sig-unverified': {
    owasp: 'API2',
    technique: 'API2.2 JWT signature altered (and any claim changed)',
    description: 'Tokens are decoded, never verified: an altered signature is accepted, so are any edited claims (it also accepts stripped and alg:none tokens).',
    hardened: '401.',
  },
  'jwt-exp-ignored': {
    owasp: 'API2',
    technique: 'API2.2 JWT expired exp',
    description: 'The signature is verified but exp is ignored: an expired, correctly signed token still works (use handle.mintToken(user, { expiresIn: -3600 })).',
    hardened: '401 "token expired".',
  },
  'jwt-sub-swap': {
    owasp: 'API2',
    technique: 'API2.2 JWT changed sub',
    description: 'Verification results are cached by signature: once a token has been verified, any payload presented with that same signature is accepted. Changing sub to another user\'s id (ids are 1, 2, 3...) acts as that user.',
    hardened: '401: every token is verified over its own header and payload.',
  },  'token-argument-unverified': {
    owasp: 'API2',
    technique: 'API2 JWT tampering of a token passed as an argument (?token=)',
    description: 'GET /api/v2/account/summary?token=<JWT> (the link of a mail) decodes the token\'s subject without checking its signature: an unsigned or re-signed token for any user opens that user\'s summary (e-mail included).',
    hardened: 'The token is verified like a bearer token (401 "invalid_token" otherwise).',
  },
  'jwt-key-confusion': {
    owasp: 'API2',
    technique: 'API2 JWT algorithm confusion (RS256 public key as the HS256 secret)',
    description: 'A token with "alg": "HS256" signed with the PEM text of the RSA public key the API publishes at /.well-known/jwks.json is accepted: the verifier is handed the public key and lets the token choose the algorithm.',
    hardened: 'The RSA key verifies RS256 tokens only, the secret HS256 only.',
  },
  'jwt-kid-path': {
    owasp: 'API2',
    technique: 'API2 JWT `kid` injection (path traversal to a known file)',
    description: 'An HS256 token\'s `kid` is joined to the keys folder and the file read as the HMAC key: "kid": "../../../../../../dev/null" makes the key empty, and a token signed with an empty key is accepted.',
    hardened: '`kid` is ignored; the one secret verifies HS256 tokens.',
  },
  'jwt-embedded-jwk': {
    owasp: 'API2',
    technique: 'API2 JWT embedded key (`jwk` header)',
    description: 'An RS256 token carrying its own public key in the `jwk` header is verified with that key: anyone signs tokens with a key of their own.',
    hardened: 'Only the API\'s own RSA key verifies RS256 tokens.',
  },
  'jwt-jku-trusted': {
    owasp: 'API2',
    technique: 'API2 JWT `jku` pointing at a key set the attacker controls',
    description: 'An RS256 token\'s `jku` URL is fetched and the key set it returns verifies the token: anyone hosts a key set of their own.',
    hardened: '`jku` is ignored; only the API\'s own RSA key verifies RS256 tokens.',
  },
  'jwt-x5c': {
    owasp: 'API2',
    technique: 'API2 JWT certificate embedded in the `x5c` header',
    description: 'An RS256 token\'s `x5c` certificate gives the key that verifies it, and nothing checks who issued the certificate: anyone signs tokens with a key of their own in a self-signed certificate.',
    hardened: '`x5c` is ignored; only the API\'s own RSA key verifies RS256 tokens.',
  },
  'jwt-x5u': {
    owasp: 'API2',
    technique: 'API2 JWT `x5u` pointing at a certificate the attacker controls',
    description: 'An RS256 token\'s `x5u` URL is fetched (from this machine only: the target never reaches past loopback) and the key of the PEM certificate it returns verifies the token, whoever issued it: anyone hosts a self-signed certificate of their own.',
    hardened: '`x5u` is ignored; only the API\'s own RSA key verifies RS256 tokens.',
  },

  'login-no-throttle': {
    owasp: 'API2',
    technique: 'API2.3 login brute force',
    description: 'POST /api/v2/auth/login answers every wrong password with 401, without limit (so do the other password sign-ins, POST /auth/session and the OAuth2 password grant).',
    hardened: 'After 5 failures per username (or 20 per client) within 15 minutes, or 30 attempts of any outcome per client and minute: 429 with Retry-After. The count is shared by the login route, POST /auth/session and the OAuth2 password grant.',
  },
  'reset-no-throttle': {
    owasp: 'API2',
    technique: 'API2.3 password-reset brute force',
    description: 'POST /api/v2/auth/password-reset and /auth/password-reset/confirm accept unlimited requests and wrong tokens.',
    hardened: '3 reset requests per email per hour and 5 wrong tokens per client per 15 minutes, then 429 with Retry-After.',
  },
  'key-in-query': {
    owasp: 'API2',
    technique: 'API2.4 credentials in the URL',
    description: 'A key in the query string authenticates: ?access_token=<JWT> or ?api_key=<API key>.',
    hardened: 'Query-string credentials are ignored (401 without a header).',
  },
  'token-in-response': {
    owasp: 'API2',
    technique: 'API2.4 tokens in responses',
    description: 'POST /api/v2/auth/password-reset returns the reset token ("resetToken") in its body, which is enough to take over the account.',
    hardened: 'The generic 202 message only; the token goes to the mail log.',
  },
  'login-user-enumeration': {
    owasp: 'API2',
    technique: 'API2 login user enumeration',
    description: 'POST /api/v2/auth/login answers an unknown username with 401 {"error": "unknown_user", "message": "No account with that username."} and a wrong password with 401 "invalid_credentials": anyone can tell which usernames exist.',
    hardened: 'One answer for both: 401 "invalid_credentials" "Wrong username or password.", after the same scrypt work.',
  },
  'login-unknown-user-error': {
    owasp: 'API2',
    technique: 'API2 login user enumeration through a server error, and login brute force',
    description: 'POST /api/v2/mobile/login (the older mobile app\'s sign-in) reads the user row without checking the lookup found one: an unknown username is answered 500, a known one with a wrong password 401, so anyone can tell which usernames exist; failures are never counted (no throttle).',
    hardened: 'The shop\'s own sign-in: one 401 "invalid_credentials" for both, behind the shared sign-in throttle.',
  },
  'verification-code-no-throttle': {
    owasp: 'API2',
    technique: 'API2 short-code brute force (e-mail verification code)',
    description: 'POST /api/v2/auth/verify-email {"email", "code"} checks the 6-digit code mailed at sign-up without limit: the million codes can be guessed.',
    hardened: 'After 5 wrong codes per address within 15 minutes: 429 with Retry-After.',
  },
  'password-change-no-current': {
    owasp: 'API2',
    technique: 'account takeover: password changed without the current password',
    description: 'PUT /api/v2/me/password accepts {"newPassword"} alone (currentPassword is checked only when sent): whoever holds a session or token, not the password, can lock the owner out.',
    hardened: 'currentPassword is required (400 without it) and must be right (403 "wrong_password").',
  },
  'cloud-key-in-answer': {
    owasp: 'API3',
    technique: 'API3 secret recognised by its shape (a cloud access key inside a connection string)',
    description: 'GET /api/v2/exports/storage answers {"connection": "s3://AKIA...:<secret>@acme-exports/exports"}: the storage access key rides in a field whose name says nothing secret.',
    hardened: 'The connection string carries no credentials (s3://acme-exports/exports).',
  },
  'sms-login-code-no-throttle': {
    owasp: 'API2',
    technique: 'API2 short-code brute force (anonymous code bound to an earlier step)',
    description: 'POST /api/v2/auth/sms-login {"phone"} sends a 4-digit code; POST /api/v2/auth/sms-login/verify {"otp"} takes it without credentials (bound to the client that asked) and without limit: the 10,000 codes can be guessed, and the answer is a token for the account.',
    hardened: 'After 5 wrong codes the pending code is dropped: 429 with Retry-After, ask for a new one.',
  },
  'password-change-over-get': {
    owasp: 'API2',
    technique: 'account takeover: password changed over GET in the query string, without the current password',
    description: 'GET /api/v2/account/change-password?new=..&repeat=.. changes the caller\'s password; `current` is checked only when sent: whoever holds a session or token can set a new password, and the passwords travel in URLs.',
    hardened: '`current` is required and must be right (403 "wrong_password").',
  },
  'default-admin-password': {
    owasp: 'API2',
    technique: 'API2 weak or default credentials',
    description: `POST /api/v2/auth/login also opens administrator accounts with the installer's default password ("changeme"): anyone who tries the common passwords signs in as admin.`,
    hardened: 'Only the account\'s own password opens it.',
  },
  'signup-confirmation-ignored': {
    owasp: 'API2',
    technique: 'API2 confirmation field not compared (value its confirmation contradicts)',
    description: 'POST /api/v2/auth/signup takes an optional passwordConfirmation and never compares it: an account is created, and signs in with its password, when passwordConfirmation says something else.',
    hardened: '400 (validation_failed, field passwordConfirmation) when passwordConfirmation is sent and differs from password.',
  },


  // ---- API3 Broken object property level authorization ---------------------------------------
  'mass-assign-privilege': {
    owasp: 'API3',
    technique: 'API3.1 mass assignment of privilege fields',
    description: 'PATCH /api/v2/me merges the whole body into the user: role, isAdmin, verified, walletBalance/balance, credits stick (and role "admin" really grants admin).',
    hardened: '400 for properties the request schema does not declare.',
  },
  'signup-mass-assignment': {
    owasp: 'API3',
    technique: 'API3.1 mass assignment of privilege fields at sign-up',
    description: 'POST /api/v2/auth/signup fills the new user from the whole body: role "admin", isAdmin/is_admin/admin, verified, balance/walletBalance, credits are stored, the new user\'s own GET /api/v2/me shows them, and the admin routes accept the new user.',
    hardened: '400 for properties SignupRequest does not declare.',
  },
  'mass-assign-readonly': {
    owasp: 'API3',
    technique: 'API3.1 mass assignment of readOnly fields',
    description: 'POST /api/v2/orders and POST/PUT /api/v2/notes store readOnly properties sent by the client: order status/total/ownerId (owner_id), note createdAt/ownerId.',
    hardened: 'readOnly properties in a request are ignored (never stored).',
  },
  'exposure-undeclared': {
    owasp: 'API3',
    technique: 'API3.2 undeclared response properties',
    description: 'Orders (list and by id) carry properties the response schema does not declare: internalNotes, fraudScore, supplierCost, warehouseId.',
    hardened: 'Only declared properties.',
  },
  'exposure-password-hash': {
    owasp: 'API3',
    technique: 'API3.2 sensitive value: password hash',
    description: 'GET /api/v2/me includes passwordHash (the stored scrypt PHC string).',
    hardened: 'Not returned.',
  },
  'exposure-api-key': {
    owasp: 'API3',
    technique: 'API3.2 sensitive value: API key',
    description: 'GET /api/v2/me includes api_key, the user\'s full live API key (it authenticates as X-API-Key).',
    hardened: 'Only the declared apiKeyHint (last 4 characters).',
  },
  'exposure-card-number': {
    owasp: 'API3',
    technique: 'API3.2 sensitive value: card number (Luhn-valid)',
    description: 'GET /api/v2/payment-methods includes cardNumber (a full, Luhn-valid PAN) and cvc.',
    hardened: 'brand, last4 and expiry only.',
  },
  'exposure-private-key': {
    owasp: 'API3',
    technique: 'API3.2 sensitive value: private key',
    description: 'GET /api/v2/integrations includes privateKey, a PEM "-----BEGIN PRIVATE KEY-----" signing key.',
    hardened: 'publicKey and keyFingerprint only.',
  },
  'token-claims-secret': {
    owasp: 'API3',
    technique: 'API3 tokens: sensitive claims in the JWT the login issues',
    description: 'POST /api/v2/auth/login puts the user\'s password hash (pwdHash, the $scrypt$ string) into the claims of the JWT it issues: anyone holding or intercepting the token decodes it.',
    hardened: 'The token carries sub, exp, iat, iss, aud, jti, username and role only.',
  },

  // ---- API4 Unrestricted resource consumption -------------------------------------------------
  'page-size-unbounded': {
    owasp: 'API4',
    technique: 'API4.1 page size abuse (limit, page_size, per_page)',
    description: 'GET /products?limit (max 100), GET /products/{productId}/reviews?page_size (max 50) and GET /activity?per_page (max 50) honour any size: limit=5000 returns all 500 products.',
    hardened: '400 when the value exceeds the documented maximum.',
  },
  'no-rate-limit': {
    owasp: 'API4',
    technique: 'API4.2 no rate limit on ordinary endpoints',
    description: 'Ordinary endpoints have no rate limit and send no rate-limit headers.',
    hardened: 'RateLimit-Limit/-Remaining/-Reset on every response; 100 requests per 10 s per client and route, then 429 with Retry-After.',
  },
  'size-limits-ignored': {
    owasp: 'API4',
    technique: 'API4.3 maxLength / maxItems / maximum ignored',
    description: 'Bodies skip maxLength/maxItems/maximum validation and are stored: note title past maxLength 120 and tags past maxItems 10 (POST/PUT /notes), order item quantity past maximum 10 and items past maxItems 20 (POST /orders, /checkout), review comment past 1000. The body size limit is 10 MB instead of 64 KB.',
    hardened: '400 with the offending field; 413 for bodies over 64 KB.',
  },
  'size-limit-500': {
    owasp: 'API4',
    technique: 'API4.3 oversize input causing a 5xx',
    description: 'PATCH /api/v2/me does not validate displayName length (maxLength 64); the database CHECK constraint rejects it and the error surfaces as 500.',
    hardened: '400 before the database is touched.',
  },
  'slow-oversize': {
    owasp: 'API4',
    technique: 'API4.4 slow response under oversized input',
    description: 'GET /api/v2/products/search?q= (maxLength 100) runs a quadratic fuzzy edit-distance match over all 500 products for any q length: a few ms for a normal query, about 0.5 s per 1,000 characters (work capped at 2,500 characters, about 1.5 s). The work yields to the event loop, so other requests are not delayed.',
    hardened: '400 for q longer than 100 characters.',
  },
  'regex-backtracking': {
    owasp: 'API4',
    technique: 'API4 input-dependent slowness (regular-expression backtracking)',
    description: 'POST /api/v2/auth/password-reset checks the e-mail (up to 64 characters) with a regular expression that nests quantifiers in the local part, ^([a-zA-Z0-9]([-.\\w]*[a-zA-Z0-9])*)@...: a run of about 30 letters with no @ takes 0.5 s, each 2 more characters 4x as long, and the event loop is blocked meanwhile.',
    hardened: 'The schema\'s linear e-mail check only: 400 at once.',
  },

  // ---- API5 Broken function level authorization ----------------------------------------------
  'bfla-admin': {
    owasp: 'API5',
    technique: 'API5.1 admin operations with a normal key',
    description: 'GET /api/v2/admin/users, GET /api/v2/admin/stats and PATCH /api/v2/admin/users/{userId} check authentication but not the admin role.',
    hardened: '403 for non-admins.',
  },
  'method-swap': {
    owasp: 'API5',
    technique: 'API5.2 method swap / API9.3 undeclared methods',
    description: 'GET-only resources also answer undeclared methods: PUT/PATCH/DELETE /api/v2/orders/{orderId} (the owner can edit status/total or delete) and PUT /api/v2/me.',
    hardened: '405 with an Allow header.',
  },
  'admin-path-variants': {
    owasp: 'API5',
    technique: 'API5.3 admin path insertion',
    description: 'An internal console answers without any auth: GET /admin, /api/admin, /api/v2/admin (HTML), and /admin/{collection}, /admin/api/v2/{collection}, /api/admin/{collection}, /api/v2/admin/{collection} (undeclared ones), /api/v2/{collection}/admin list every user\'s rows (collections: users, customers, orders, notes, documents, transfers, payments, products).',
    hardened: '404.',
  },
  'user-directory': {
    owasp: 'API5',
    technique: 'API5 every account listed, with personal data, to any user',
    description: 'GET /api/v2/members lists every account with its e-mail address and phone number to any signed-in user (refused without credentials).',
    hardened: 'The directory shows ids, user names and display names only.',
  },
  'declared-privilege-header': {
    owasp: 'API5',
    technique: 'API5 a privilege header the operation declares is trusted',
    description: 'DELETE /api/v2/bulletins/{bulletinId} declares an X-Is-Moderator header and removes any bulletin for any signed-in user who sends X-Is-Moderator: true; without it, only administrators.',
    hardened: 'The header is ignored: 403 for anyone but an administrator.',
  },
  'trusted-client-ip': {
    owasp: 'API5',
    technique: 'API5 privilege-asserting request headers (client IP spoofing)',
    description: 'GET /api/v2/admin/users, GET /api/v2/admin/stats and PATCH /api/v2/admin/users/{userId} treat a request whose X-Forwarded-For (first address) or X-Real-IP is a loopback address as the internal admin service: served without credentials or role.',
    hardened: 'Forwarding headers are ignored: 401 without credentials, 403 for non-admins.',
  },
  'account-delete-other': {
    owasp: 'API5',
    technique: 'account deletion (an administrator\'s function) by an ordinary user',
    description: 'DELETE /api/v2/users/{userId} lets any signed-in customer delete another customer\'s account: the victim can no longer sign in and their tokens, API key, sessions and refresh tokens stop working. (Administrators\' accounts need an administrator in both modes.)',
    hardened: '403 unless the caller is an administrator or the account\'s own user.',
  },
  'unauth-reset': {
    owasp: 'API5',
    technique: 'unauthenticated destructive route (GET reset)',
    description: 'GET /api/v2/maintenance/reset (documented for administrators) answers without credentials and deletes every note customers wrote, for all users.',
    hardened: '401 without credentials, 403 for anyone but an administrator; nothing is deleted.',
  },

  // ---- API6 Sensitive business flows ---------------------------------------------------------
  'reservation-quantity': {
    owasp: 'API6',
    technique: 'API6 out-of-range business values behind a unique pair (a create the scan must vary to reach the rule)',
    description: 'POST /api/v2/reservations {"productId", "quantity"} stores a quantity below its minimum of 1. A user holds one reservation per product (409 when the pair exists), so a second create of the spec\'s example product is refused before the quantity is judged: another product must be named.',
    hardened: '400 for a quantity below 1.',
  },
  'negative-quantity': {
    owasp: 'API6',
    technique: 'API6 out-of-range business values (negative quantity)',
    description: 'POST /api/v2/orders accepts an item quantity below its minimum of 1 (0 or negative): the line is stored as sent and the order total drops by the line\'s price, below zero for a one-line order.',
    hardened: '400 for a quantity below 1.',
  },
  'flow-checkout': {
    owasp: 'API6',
    technique: 'API6 burst on checkout / purchase',
    description: 'POST /api/v2/checkout (buy now) and POST /api/v2/orders (place an order) have no throttle.',
    hardened: 'Checkout and order placement: 5 per minute per user each, then 429 with Retry-After.',
  },
  'flow-transfer': {
    owasp: 'API6',
    technique: 'API6 burst on transfer',
    description: 'POST /api/v2/transfers has no throttle.',
    hardened: '5 per minute per user, then 429 with Retry-After.',
  },
  'flow-vote': {
    owasp: 'API6',
    technique: 'API6 burst on vote',
    description: 'POST /api/v2/products/{productId}/votes has no throttle and counts every vote.',
    hardened: '5 per minute per user, then 429 with Retry-After.',
  },
  'flow-comment': {
    owasp: 'API6',
    technique: 'API6 burst on comment',
    description: 'POST /api/v2/products/{productId}/reviews has no throttle.',
    hardened: '5 per minute per user, then 429 with Retry-After.',
  },
  'flow-signup': {
    owasp: 'API6',
    technique: 'API6 burst on sign-up',
    description: 'POST /api/v2/auth/signup has no throttle.',
    hardened: '8 attempts per 10 minutes per client (room for the 2-4 test users a scan registers), then 429 with Retry-After.',
  },
  'flow-otp': {
    owasp: 'API6',
    technique: 'API6 burst on OTP send/verify',
    description: 'POST /api/v2/auth/otp/send (sends an SMS) and POST /api/v2/auth/otp/verify (6-digit code) have no throttle.',
    hardened: '5 per minute per user per route, then 429 with Retry-After.',
  },
  'race-promo-code': {
    owasp: 'API6',
    technique: 'API6 race condition on a one-time action (a promo code redeemed in parallel)',
    description: 'POST /api/v2/promotions/redeem {"code": "WELCOME5"} checks whether the customer already used the code, waits for the loyalty ledger (40 ms), then records the redemption and adds the credit: a repeat is refused with 409, but parallel requests all pass the check and each adds the credit.',
    hardened: 'The redemption is claimed before the wait, in one step: one of the parallel requests succeeds, the others get 409.',
  },
  'captcha-rating-range': {
    owasp: 'API6',
    technique: 'API6 out-of-range business values behind a challenge (CAPTCHA) each create must answer',
    description: 'POST /api/v2/ratings {productId, rating, comment, captchaId, captcha} needs the answer to a fresh arithmetic challenge from GET /api/v2/ratings/captcha ({"captchaId": 7, "captcha": "4 * 3 - 2"}, answer not handed out), and then stores any rating, 0 and negative ones included; GET /api/v2/ratings/{ratingId} reads it back.',
    hardened: '400 for a rating outside 1..5.',
  },
  'captcha-answer-leak': {
    owasp: 'API6',
    technique: 'API6 a human-verification challenge (CAPTCHA) served with its answer',
    description: 'GET /api/v2/feedback/challenge answers {"challengeId", "question": "7 + 3 * 2", "answer": "13"}: the expected answer comes with every fresh challenge, so a script passes the challenge POST /api/v2/feedback asks for.',
    hardened: 'The answer stays on the server: the challenge is {"challengeId", "question"} only.',
  },

  // ---- API7 SSRF -----------------------------------------------------------------------------
  ssrf: {
    owasp: 'API7',
    technique: 'API7.1 out-of-band callback / API7.2 internal targets (http, cloud metadata)',
    description: 'POST /api/v2/link-preview {"url"} and PUT /api/v2/me/avatar {"imageUrl"} fetch any http(s) URL, loopback and private addresses included; link-preview returns the fetched title and the first 2,000 characters. Cloud metadata (169.254.169.254) is attempted (see handle.outbound; the egress sandbox never lets it leave the machine).',
    hardened: '400 "URL not allowed" for loopback, private, link-local and reserved addresses and non-http(s) schemes, unless the origin is in fetchAllowlist.',
  },
  'ssrf-file': {
    owasp: 'API7',
    technique: 'API7.2 internal targets (file://)',
    description: 'The same fetcher also reads file:// URLs: link-preview of file:///etc/passwd returns its content.',
    hardened: '400 for non-http(s) schemes.',
  },
  'ssrf-encoded': {
    owasp: 'API7',
    technique: 'API7.2 internal targets, fetched content returned base64-encoded',
    description: 'POST /api/v2/link-archive {"url"} fetches any http(s) URL, loopback included, and answers {"content": base64(fetched body)}.',
    hardened: '400 "URL not allowed" for loopback, private, link-local and reserved addresses (as link-preview).',
  },

  // ---- API8 Security misconfiguration and injection ------------------------------------------
  'cors-reflect': {
    owasp: 'API8',
    technique: 'API8.1 CORS arbitrary origin reflected (with credentials)',
    description: 'Access-Control-Allow-Origin echoes any Origin, with Access-Control-Allow-Credentials: true.',
    hardened: 'CORS headers only for https://shop.acme.example, with Vary: Origin.',
  },
  'cors-null': {
    owasp: 'API8',
    technique: 'API8.1 CORS null origin',
    description: 'Origin: null is allowed (Access-Control-Allow-Origin: null, credentials true).',
    hardened: 'No CORS headers for null.',
  },
  'cors-wildcard': {
    owasp: 'API8',
    technique: 'API8.1 CORS wildcard',
    description: 'Every response carries Access-Control-Allow-Origin: *.',
    hardened: 'No wildcard.',
  },
  'missing-nosniff': {
    owasp: 'API8',
    technique: 'API8.2 missing X-Content-Type-Options',
    description: 'Responses lack X-Content-Type-Options: nosniff.',
    hardened: 'nosniff on every response.',
  },
  'missing-no-store': {
    owasp: 'API8',
    technique: 'API8.2 missing Cache-Control: no-store on authenticated responses',
    description: 'Authenticated responses are sent with Cache-Control: private, max-age=600 instead of no-store.',
    hardened: 'Cache-Control: no-store on every API response.',
  },
  'missing-hsts': {
    owasp: 'API8',
    technique: 'API8.2 missing Strict-Transport-Security (https only)',
    description: 'HTTPS responses lack Strict-Transport-Security. Only observable with the tls option.',
    hardened: 'Strict-Transport-Security: max-age=31536000; includeSubDomains on HTTPS responses.',
  },
  'version-disclosure': {
    owasp: 'API8',
    technique: 'API8.2 Server / X-Powered-By version disclosure',
    description: 'Server: AcmeShop/2.4.1 and X-Powered-By: Node.js/<version> on every response.',
    hardened: 'Neither header.',
  },
  'verbose-errors': {
    owasp: 'API8',
    technique: 'API8.3 verbose errors (stack traces)',
    description: 'Error responses carry the exception name, message and real stack trace: malformed JSON gives 500 with the JSON.parse SyntaxError stack; wrong types give 400 with the validator\'s stack.',
    hardened: 'Generic messages ({"error": "invalid_json"} / field errors), never a stack.',
  },
  'sqli-error': {
    owasp: 'API8',
    technique: 'API8.4 SQL injection, error-based (also boolean and time-based)',
    description: 'GET /api/v2/products?category= is concatenated into SQL (SQLite); SQL errors are returned with the SQLite message ("unrecognized token", "syntax error").',
    hardened: 'category must be one of the enum values; parameterised query.',
  },
  'sqli-time': {
    owasp: 'API8',
    technique: 'API8.4 SQL injection, blind time-based',
    description: 'GET /api/v2/orders?status= (string context) and GET /api/v2/products/{productId}/reviews (numeric context) are concatenated into SQL; errors are swallowed (empty list). The database has a sleep(seconds) function, so "1 AND sleep(2)" or "x\' OR sleep(2)--" delays the answer by the requested time (once per statement, at most 10 s).',
    hardened: 'Enum/integer validation and parameterised queries.',
  },
  'nosql-injection': {
    owasp: 'API8',
    technique: 'API8.4 NoSQL operator injection',
    description: 'POST /api/v2/auth/login looks the user up in a legacy document store with the raw body: {"username": "alice", "password": {"$ne": null}} logs in as alice ($ne, $gt, $regex, $in... are honoured).',
    hardened: '400 unless username and password are strings; scrypt comparison.',
  },
  'sqli-path': {
    owasp: 'API8',
    technique: 'API8.4 SQL injection in a path segment (blind: boolean pair and UNION read)',
    description: "GET /api/v2/categories/{category}/products puts the path segment into SQL (SQLite, no sleep function); errors give a generic 500. \"books' AND '1'='1\" lists the books, \"books' AND '1'='2\" nothing, and \"x' UNION SELECT 1,2,3,4-- -\" returns the constants.",
    hardened: '404 unless the category is one of the known ones; parameterised query.',
  },
  'nosql-query': {
    owasp: 'API8',
    technique: 'API8.4 NoSQL operator injection in a query string',
    description: 'GET /api/v2/coupons/check?code= parses bracket keys as operators (code[$ne]=x, code[$regex]=.*, code[$gt]=) and looks the coupon up in a document collection: any operator that matches returns the first coupon, an internal staff one.',
    hardened: 'code must be a plain string (bracket keys are ignored, so it is missing: 400); exact match.',
  },
  'nosql-where': {
    owasp: 'API8',
    technique: 'API8.4 NoSQL server-side JavaScript ($where) injection',
    description: "GET /api/v2/stores?city= filters the store collection with a $where expression built by concatenation (\"this.city == '<city>'\", run in a sandbox): \"Lyon' || 'a'==='a\" lists every store, including unlisted warehouses.",
    hardened: 'Exact string comparison; no expression is built from input.',
  },
  'cmd-injection': {
    owasp: 'API8',
    technique: 'API8.4 command injection (time-based)',
    description: 'GET /api/v2/downloads/checksum?file= runs "sha256sum <dir>/<file>" through /bin/sh: "x; sleep 2", "$(sleep 2)", "|sleep 2" really delay.',
    hardened: 'file must name an existing download; the hash is computed in process.',
  },
  'path-traversal': {
    owasp: 'API8',
    technique: 'API8.4 path traversal',
    description: 'GET /api/v2/downloads/content?file= joins the value onto the downloads directory without containment: ../../../../etc/passwd returns the real file.',
    hardened: '404 for anything but a file directly inside the downloads directory.',
  },
  'stored-html': {
    owasp: 'API8',
    technique: 'API8 script content stored and served back as HTML',
    description: 'GET /api/v2/notes/{noteId}/print renders the note\'s title and body into a text/html page unescaped, with a policy that allows inline scripts: markup stored through POST/PUT /notes runs in the reader\'s browser.',
    hardened: 'Title and body are HTML-escaped; the strict Content-Security-Policy stays.',
  },
  'pinboard-html': {
    owasp: 'API8',
    technique: 'API8 stored markup served as HTML by another view or route',
    description: 'POST /api/v2/pins stores the text as sent; GET /api/v2/pins?format=html and GET /api/v2/pinboard concatenate the pins into a text/html page unescaped.',
    hardened: 'Both views HTML-escape the pins (the JSON listing returns them as stored).',
  },
  'lookup-traceback': {
    owasp: 'API8',
    technique: 'API8.3 verbose errors (a lookup that crashes on an unknown identifier)',
    description: 'GET /api/v2/gift-cards/{code} with an unknown code (e.g. a known code in upper case) answers 500 with the exception\'s stack trace as a JSON array of lines.',
    hardened: '404 for an unknown code.',
  },
  'sqli-search-hidden': {
    owasp: 'API8',
    technique: 'API8 SQL injection in a search term (the rest of the WHERE clause commented out)',
    description: 'GET /api/v2/recipes?q= concatenates the term into LIKE \'%q%\' inside ((... OR ...) AND deleted_at IS NULL): q=\'))-- lists the soft-deleted recipes too. A broken statement answers a generic 500 (no database error).',
    hardened: 'Bound parameters: the term is only ever a LIKE pattern.',
  },
  'signup-balance': {
    owasp: 'API3',
    technique: 'API3 mass assignment of a balance at registration (a second sign-up with its own users)',
    description: 'POST /api/v2/rewards/members copies points from the body into the new member; GET /api/v2/rewards/members/me (X-Rewards-Auth: base64 of "username:password", no login route) shows them.',
    hardened: 'The sign-up takes only username, password and displayName (other fields are refused); points start at 0.',
  },
  'template-injection': {
    owasp: 'API8',
    technique: 'API8 server-side template injection (expressions evaluated)',
    description: 'POST /api/v2/cards/preview {"message"} runs the message as a JavaScript template literal so that ${name} works: any ${expression} is evaluated (in a sandboxed context with a time limit).',
    hardened: 'Only the ${name} placeholder is replaced, as text.',
  },
  'nosql-where-number': {
    owasp: 'API8',
    technique: 'API8 NoSQL injection: a server-side JavaScript expression built from a numeric path id',
    description: 'GET /api/v2/stores/{storeId}/reviews filters with "this.store == <storeId>" (no quotes): 1 || 1===1 lists every store\'s reviews, 1 && 1===2 none.',
    hardened: 'The id must be an integer and is compared as one.',
  },
  'ldap-injection': {
    owasp: 'API8',
    technique: 'API8 LDAP injection in a search filter',
    description: 'GET /api/v2/directory/people?uid= pastes the value into the filter (&(objectClass=person)(uid=<value>)): *)(objectClass=* lists every entry, alice)(objectClass=* answers like alice and alice)(objectClass=x like no one, and a broken filter answers 500 "Bad search filter".',
    hardened: 'The value is escaped as RFC 4515 asks (\\2a, \\28, \\29, \\5c): it only ever matches a uid.',
  },
  'xpath-injection': {
    owasp: 'API8',
    technique: 'API8 XPath injection in an XML look-up',
    description: "GET /api/v2/directory/extensions?login= pastes the value into /phonebook/employee[login='<value>']: x' or '1'='1 lists every employee, alice' and count(/*)=1 and '1'='1 answers like alice, and a quote answers 500 with the XPath error.",
    hardened: 'The value is bound as an XPath variable ($login).',
  },
  'argument-injection': {
    owasp: 'API8',
    technique: 'API8 argument injection (a value run without a shell, taken as an option)',
    description: 'GET /api/v2/downloads/preview?file= runs head -n <lines> <file> without a shell: a file name starting with "-" is an option (--help answers the usage text, --version the version, an unknown option the error on stderr).',
    hardened: '"--" ends the options before the file name, and only known downloads are read.',
  },
  'sql-statement': {
    owasp: 'API8',
    technique: 'API8 SQL injection where the parameter is a whole statement',
    description: 'POST /api/v2/reports/run {"sql"} runs whatever read-only statement it is sent (the reporting screen sends saved ones): SELECT 7*191 answers 1337, and SELECT * FROM users reads every account.',
    hardened: 'Only the saved reports\' statements run; anything else is 403.',
  },
  'jsonp-callback': {
    owasp: 'API8',
    technique: 'API8 JSONP callback wraps data',
    description: 'Any GET answering JSON honours ?callback= (also jsonp=, cb=): the answer becomes text/javascript `/**/ typeof fn === \'function\' && fn({...});` with the caller\'s data (GET /api/v2/me with a cookie session leaks the account to any site).',
    hardened: 'The parameter is ignored: application/json with nosniff.',
  },
  'trace-enabled': {
    owasp: 'API8',
    technique: 'API8.5 TRACE enabled',
    description: 'TRACE on any path echoes the request line and headers (Authorization included) as message/http.',
    hardened: '405.',
  },
  'plain-http': {
    owasp: 'API8',
    technique: 'API8.5 plain HTTP accepted where HTTPS exists',
    description: 'With the tls option the port speaks both TLS and plain HTTP; plain HTTP requests are served like HTTPS ones. Only observable with the tls option.',
    hardened: 'Plain HTTP gets 301 to the https:// URL (no content).',
  },

  // ---- API9 Improper inventory management ----------------------------------------------------
  'old-version': {
    owasp: 'API9',
    technique: 'API9.1 old version alive',
    description: '/api/v1/... answers every v2 route (same handlers, plus Deprecation: true) though the spec documents only /api/v2.',
    hardened: '404.',
  },
  'exposed-docs': {
    owasp: 'API9',
    technique: 'API9.2 exposed API docs',
    description: 'The spec, plus an internal POST /internal/reindex that the published spec leaves out (JSON documents only), is served at /openapi.json, /openapi.yaml, /swagger.json, /api-docs, /v2/api-docs, /v3/api-docs, /swagger/v1/swagger.json, and a Swagger UI page at /swagger, /swagger-ui.html, /swagger-ui/, /docs, /redoc; all also under /api and /api/v2.',
    hardened: '404.',
  },
  'debug-endpoints': {
    owasp: 'API9',
    technique: 'API9.2 exposed actuator, debug and metrics endpoints',
    description: '/actuator, /actuator/env (environment: database path, an internal service URL, the start of the webhook secret), /actuator/health, /actuator/metrics, /debug/vars (expvar JSON with the command line), /debug/pprof/, /metrics (Prometheus text); all also under /api and /api/v2.',
    hardened: '404.',
  },
  'graphql-introspection': {
    owasp: 'API9',
    technique: 'API9.2 GraphQL introspection',
    description: '/graphql (also /api/graphql, /api/v2/graphql) serves a small GraphQL API over products, the caller and their orders with introspection on (the standard IntrospectionQuery works, GET or POST).',
    hardened: '404.',
  },
  'undeclared-status': {
    owasp: 'API9',
    technique: 'API9.3 undeclared status codes',
    description: 'POST /api/v2/notes answers 200 (the spec declares 201) and GET /api/v2/products/{productId} for an unknown id answers 204 (the spec declares 404).',
    hardened: 'Only declared status codes.',
  },
  'undocumented-collection': {
    owasp: 'API9',
    technique: 'API9 discovery: the collection route of a documented item route',
    description: 'GET /api/v2/users (the collection of the documented DELETE /api/v2/users/{userId}, not in the spec) lists every user\'s id, username, e-mail and role to any signed-in caller.',
    hardened: '404 like any unknown route.',
  },
  'backup-file': {
    owasp: 'API9',
    technique: 'API9 discovery: a backup file in the web root',
    description: 'GET /backup.sql serves an SQL dump of the users table (usernames, e-mails, password hashes) without credentials.',
    hardened: '404 like any unknown route.',
  },
  'robots-listing': {
    owasp: 'API9',
    technique: 'API9 discovery: a folder only robots.txt names, with a directory listing and a backup',
    description: 'robots.txt disallows /api/v2/exports/, which the spec does not document: it serves a directory listing naming orders-2024.sql.bak and readme.txt, and the backup is an SQL dump of the orders table, without credentials.',
    hardened: 'robots.txt names no folder; 404 like any unknown route.',
  },
  'client-bundle-route': {
    owasp: 'API10',
    technique: 'API9 discovery: a route only the web client\'s script names, with an open redirect',
    description: 'The HTML page at / loads /static/app.js, whose code calls /api/v2/outbound?url=https://shop.acme.example/offers (not in the spec): that route answers 302 to any absolute URL.',
    hardened: 'The page and its script are not served; /api/v2/outbound redirects only to the shop (400 otherwise).',
  },
  'debug-console': {
    owasp: 'API8',
    technique: 'API8 framework debug console left on',
    description: 'GET /console serves an interactive debugger console page (Werkzeug\'s) without credentials.',
    hardened: '404 like any unknown route.',
  },

  'legacy-xml-upload': {
    owasp: 'API9',
    technique: 'API9 discovery: an undocumented upload route that still parses XML, expanding the entities of its DTD (XXE)',
    description: 'POST /api/v2/file-upload (not in the spec, linked from nowhere; GET answers 405) takes a multipart "file". A .xml file is parsed with DTD entities expanded (internal ones, and external ones over http, loopback included) and its text echoed in a 410 "XML complaint imports are deprecated: ..." answer.',
    hardened: '404 like any unknown route (415 for .xml while only upload-type-unchecked keeps the route).',
  },
  'upload-type-unchecked': {
    owasp: 'API8',
    technique: 'API8 upload type not checked on the server',
    description: 'POST /api/v2/file-upload (undocumented, as above) stores a file of any name and type (201), an .exe included; the client is meant to send PDF, PNG or JPEG only. Its size limit is the body limit (64 KB; 10 MB with size-limits-ignored).',
    hardened: '404 like any unknown route (415 for other types while only legacy-xml-upload keeps the route).',
  },
  'avatar-url-ssrf': {
    owasp: 'API7',
    technique: 'API7 SSRF in a route only a common-path guess finds',
    description: 'POST /api/v2/avatar/url {"avatarUrl": ...} (not in the spec; GET answers 405) fetches the URL server-side for any signed-in caller, loopback included, and answers 200 with its size.',
    hardened: '404 like any unknown route.',
  },

  // ---- API10 Unsafe consumption of APIs ------------------------------------------------------
  'open-redirect': {
    owasp: 'API10',
    technique: 'API10 open redirect',
    description: 'GET /api/v2/links/out?url= answers 302 to any absolute URL.',
    hardened: '302 only to relative paths and https://shop.acme.example; 400 otherwise.',
  },
  'follow-redirects': {
    owasp: 'API10',
    technique: 'API10 server follows redirects to internal addresses',
    description: 'The URL fetcher validates only the first URL and follows redirects without re-checking them: an allowed origin (fetchAllowlist, e.g. "http://127.0.0.1:*") that redirects to an internal address (http://localhost:<port>/..., http://127.0.0.1:<target port>/...) is followed and the content returned by link-preview.',
    hardened: 'Every redirect hop is validated like the first URL; a redirect to a refused address is refused.',
  },
  'unsigned-webhook': {
    owasp: 'API10',
    technique: 'API10 unsigned webhook payloads accepted',
    description: 'POST /api/v2/webhooks/payment-provider checks X-Acme-Signature only when present: an unsigned {"type":"payment.succeeded","orderId":...} marks the order paid.',
    hardened: '401 unless X-Acme-Signature is sha256=<HMAC-SHA256 of the raw body with the webhook secret>.',
  },

  // ---- Stateful -----------------------------------------------------------------------------
  'use-after-delete': {
    owasp: 'STATEFUL',
    technique: 'Use after delete',
    description: 'DELETE /api/v2/notes/{noteId} answers 204 but only marks the row; GET /notes/{noteId} still returns it (the list hides it).',
    hardened: '404 after delete.',
  },
  'leak-on-failed-create': {
    owasp: 'STATEFUL',
    technique: 'Leak on failed create',
    description: 'POST /api/v2/notes inserts before validating: a 400 (e.g. priority "high" instead of an integer, or a missing title) still leaves the note in GET /notes.',
    hardened: 'Validation first; nothing stored on 4xx.',
  },
} as const satisfies Record<string, FlawInfo>;

export type FlawId = keyof typeof FLAWS;

export const FLAW_IDS = Object.keys(FLAWS) as FlawId[];

export type TargetMode = 'vulnerable' | 'hardened';

/** The active flaws for a mode and per-flaw overrides. Unknown ids are an error, not silence. */
export function resolveFlaws(mode: TargetMode, overrides: Partial<Record<FlawId, boolean>> = {}): Set<FlawId> {
  const active = new Set<FlawId>(mode === 'vulnerable' ? FLAW_IDS : []);
  for (const [id, on] of Object.entries(overrides)) {
    if (!(id in FLAWS)) throw new Error(`Unknown flaw id: ${id}`);
    if (on) active.add(id as FlawId);
    else active.delete(id as FlawId);
  }
  return active;
}

/** Only the listed flaws on: the usual shape of a single check's test. */
export function onlyFlaws(...ids: FlawId[]): Partial<Record<FlawId, boolean>> {
  return Object.fromEntries(ids.map((id) => [id, true]));
}
