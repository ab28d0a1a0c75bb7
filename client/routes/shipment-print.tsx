import { getRouteApi } from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { TDictionary } from "../../db/contracts/dictionary";
import type { TShipment } from "../../db/contracts/shipments";
import { PageHeader } from "../components/app/screens";
import { PrintPage } from "../components/kit/print-page";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../components/ui/table";
import { shipmentsScreen } from "../features/shipments/shipments-screen";
import { labelOf } from "../lib/dictionaries";
import { formatMoney, formatNumber } from "../lib/format";

// The route's hooks by its id: the route file (./shipments) imports this screen lazily, not the other way round.
const printShipmentRoute = getRouteApi("/shipments/print/$itemId");

/** /shipments/print/{itemId}: the shipment's fields, then its items and packages. */
export function PrintShipment() {
  const { item, dictionaries } = printShipmentRoute.useLoaderData();
  return (
    <PrintPage screen={shipmentsScreen} item={item} dictionaries={dictionaries}>
      <ShipmentLinesPrint item={item} dictionaries={dictionaries} />
    </PrintPage>
  );
}

/**
 * The print page's item and package tables. Each line shows what the documents print for it: its unit
 * of measure, this sale's unit price (the catalogue price when none is set) and its country of origin
 * (the product's when the line names none); money in the shipment's currency.
 */
function ShipmentLinesPrint({ item, dictionaries }: { item: TShipment; dictionaries: TDictionary }) {
  const currency = item.currency?.code;
  return (
    <div className="mt-6 space-y-6">
      <LinesTable
        title="Items"
        columns={[
          { label: "Product" },
          { label: "Product number" },
          { label: "US ECCN" },
          { label: "HTS" },
          { label: "Origin" },
          { label: "Quantity", isNumeric: true },
          { label: "Unit" },
          { label: "Unit price", isNumeric: true },
          { label: "Extended value", isNumeric: true },
        ]}
        rows={item.items.map((line) => ({
          id: line.id,
          cells: [
            line.product.name,
            line.product.product_number,
            line.product.US_ECCN || "N/A",
            line.product.HTS || "N/A",
            labelOf(dictionaries.countries, line.origin_country_id ?? line.product.country_of_origin_id) ||
              "N/A",
            formatNumber(line.quantity),
            line.unit_of_measure,
            formatMoney(line.unit_price ?? line.unit_value, currency),
            formatMoney(line.extended_value, currency),
          ],
        }))}
      />
      <LinesTable
        title="Packages"
        columns={[
          { label: "Package type" },
          { label: "Quantity", isNumeric: true },
          { label: "Net weight (kg)", isNumeric: true },
          { label: "Gross weight (kg)", isNumeric: true },
          { label: "L × W × H (in)", isNumeric: true },
        ]}
        rows={item.packages.map((line) => ({
          id: line.id,
          cells: [
            line.package_name || labelOf(undefined, line.package_id),
            formatNumber(line.quantity),
            formatNumber(line.net_weight),
            formatNumber(line.gross_weight),
            `${formatNumber(line.length)} × ${formatNumber(line.width)} × ${formatNumber(line.height)}`,
          ],
        }))}
      />
    </div>
  );
}

/** One titled table of shipment lines; an empty one says N/A, as print pages do for empty values. */
function LinesTable({
  title,
  columns,
  rows,
}: {
  title: string;
  columns: { label: string; isNumeric?: boolean }[];
  rows: { id: number; cells: ReactNode[] }[];
}) {
  const alignOf = (index: number) => (columns[index].isNumeric ? "text-right tabular-nums" : undefined);
  return (
    <div>
      <PageHeader title={title} />
      <div className="rounded-lg border bg-card">
        <Table aria-label={title}>
          <TableHeader>
            <TableRow>
              {columns.map((column, index) => (
                <TableHead key={column.label} className={alignOf(index)}>
                  {column.label}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columns.length} className="text-center text-muted-foreground">
                  N/A
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row) => (
                <TableRow key={row.id}>
                  {row.cells.map((cell, index) => (
                    <TableCell key={columns[index].label} className={alignOf(index)}>
                      {cell}
                    </TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
