// The library lending API's schema. The same SDL in both modes: the flaws live in resolvers,
// validation rules and the HTTP layer, never in what the schema offers.

export const LIBRARY_SDL = /* GraphQL */ `
"""Any JSON value."""
scalar JSON

enum Role {
  MEMBER
  ADMIN
}

type Query {
  """Opening hours and lending rules. Public."""
  libraryInfo: LibraryInfo!
  """The catalogue. Public."""
  books(limit: Int = 10): [Book!]!
  book(id: ID!): Book
  author(id: ID!): Author
  """Books whose title contains the text. Public."""
  searchBooks(title: String!): [Book!]!
  """Public member directory (username and display name), filtered by a JSON object of field values."""
  findMembers(filter: JSON!): [MemberCard!]!
  """The signed-in member."""
  me: Member
  """A signed token (a JWT) that opens the caller's member card, to share it."""
  shareToken: String
  """The member card a share token opens. Public."""
  sharedCard(token: String!): MemberCard
  """A signed badge token (a JWT naming the caller) for the library's door readers."""
  badgeToken: String
  """The member card a badge token opens. Public."""
  badge(token: String!): MemberCard
  member(id: ID!): Member
  """Members: an admin sees every member, a member their own row."""
  members: [Member!]
  loan(id: ID!): Loan
  """Loans: an admin sees every loan, a member their own."""
  loans: [Loan!]
  """The notice board. Public."""
  notices: [Notice!]!
  """A mirror host's lookup, for the library's administrators: their username and password go in the arguments."""
  mirrorReport(username: String!, password: String!, host: String!): String
}

type Mutation {
  register(username: String!, password: String!, email: String!): AuthPayload!
  login(username: String!, password: String!): AuthPayload!
  """Sends a 4-digit reset code to the member (valid 10 minutes)."""
  requestPasswordReset(username: String!): Boolean!
  """Checks a reset code; the right one returns a session token."""
  verifyResetCode(username: String!, code: String!): ResetResult!
  borrowBook(bookId: ID!, notes: String): Loan!
  addReview(bookId: ID!, rating: Int!, text: String!): Review!
  """Checks that a mirror host name resolves."""
  checkMirror(host: String!): MirrorStatus!
  """Fetches a cover image from a URL and records it for the book."""
  importBookCover(bookId: ID!, url: String!): CoverImport!
  """Suggests a book for the library to buy, with a link to its publisher's page (checked at once)."""
  suggestPurchase(title: String!, link: String!): PurchaseSuggestion!
  """Imports a partner library's catalogue from its server (scheme, host, port and path of the export)."""
  importCatalogue(scheme: String!, host: String!, port: Int, path: String!): CatalogueImport!
  """Pins a notice on the board (signed-in members)."""
  postNotice(title: String!, body: String!): Notice!
  deleteMember(id: ID!): Boolean!
  setMemberRole(id: ID!, role: Role!): Member!
  updateLibrarySettings(name: String, openingHours: String, loanDays: Int, maxLoans: Int): LibraryInfo!
}

type LibraryInfo {
  name: String!
  openingHours: String!
  loanDays: Int!
  maxLoans: Int!
}

type Author {
  id: ID!
  name: String!
  bio: String!
  books: [Book!]!
}

type Book {
  id: ID!
  title: String!
  isbn: String!
  year: Int!
  coverUrl: String
  available: Boolean!
  author: Author!
  reviews: [Review!]!
}

type Review {
  id: ID!
  rating: Int!
  text: String!
  reviewer: String!
  book: Book!
}

type MemberCard {
  id: ID!
  username: String!
  displayName: String!
}

type Member {
  id: ID!
  username: String!
  displayName: String!
  email: String!
  address: String!
  role: Role!
  joinedAt: String!
  loans: [Loan!]!
  reviews: [Review!]!
}

type Loan {
  id: ID!
  borrowedAt: String!
  dueAt: String!
  returned: Boolean!
  """Private notes of the library about this loan."""
  notes: String
  book: Book!
  member: Member!
}

type AuthPayload {
  token: String!
  member: Member!
}

type ResetResult {
  success: Boolean!
  token: String
}

type MirrorStatus {
  host: String!
  resolves: Boolean!
  output: String!
}

type PurchaseSuggestion {
  title: String!
  link: String!
  linkStatus: Int!
  linkContentType: String!
}

type Notice {
  id: ID!
  title: String!
  body: String!
  postedBy: String!
}

type CatalogueImport {
  status: Int!
  size: Int!
}

type CoverImport {
  url: String!
  status: Int!
  contentType: String!
  size: Int!
}
`;
