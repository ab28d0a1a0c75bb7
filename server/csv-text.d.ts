// CSV files imported with `with { type: "text" }` arrive as their text (the EAR tables).
declare module "*.csv" {
  const text: string;
  export default text;
}
