// Just what test/http/elmapi3.test.ts uses of superagent 10 and qs (neither ships types).
declare module 'superagent' {
  interface Response {
    status: number;
    body: any;
    text: string;
    headers: Record<string, string | undefined>;
  }
  interface Request extends PromiseLike<Response> {
    set(name: string, value: string): Request;
    query(params: Record<string, unknown>): Request;
    ok(accept: (res: Response) => boolean): Request;
  }
  const superagent: { get(url: string): Request };
  export default superagent;
}
declare module 'qs' {
  const qs: { stringify(value: unknown, options: { indices: boolean; strictNullHandling: boolean }): string };
  export default qs;
}
