export interface CategoryRecord {
  id: string;
  name: string;
  description: string | null;
  createdAt?: Date;
}

export interface ProductRecord {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  stockQuantity: number;
  categoryId: string | null;
  /** Ordered; the first is the main image. */
  imageUrls: string[];
  createdAt?: Date;
}

export interface Product extends Required<ProductRecord> {
  updatedAt: Date;
  category: { id: string; name: string } | null;
}
