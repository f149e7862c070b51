// Who is calling: the bearer token and the user id every signed-in call carries (spec section 7).

export interface Auth {
  token: string;
  userId: string;
}
